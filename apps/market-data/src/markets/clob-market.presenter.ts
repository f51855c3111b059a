import {
  feeRateBps,
  unitsAsNumber,
  type ClobMarket,
  type ClobMarketInfo,
  type FeeRate,
  type FeeScheduleSnapshot,
  type SamplingMarket,
  type SimplifiedMarket,
  UNIT,
} from '@exchange/contracts';
import type { MarketTape } from '../books/market-books';
import { midpointOf, type Outcome } from '../books/token-view';
import type { MarketRecord } from './market-registry';

/** The fee schedule of `/fee-rate` without a token: what a market gets when none is given (no fee). */
export const DEFAULT_FEE_SCHEDULE: FeeScheduleSnapshot = { ratePpm: 0, exponent: 1, takerOnly: true, rebateRatePpm: 0 };


export function feeRateOf(schedule: FeeScheduleSnapshot, category: string): FeeRate {
  return {
    base_fee: feeRateBps(schedule),
    fd: { r: schedule.ratePpm / UNIT, e: schedule.exponent, to: schedule.takerOnly },
    fee_schedule: {
      rate: schedule.ratePpm / UNIT,
      exponent: schedule.exponent,
      takerOnly: schedule.takerOnly,
      rebateRate: schedule.rebateRatePpm / UNIT,
      category,
      version: 1,
      source: 'local',
    },
  };
}

/** Resolved: 1 for the winner, 0 for the other; otherwise the midpoint, else the last trade, else 0.5. */
export function tokenPrice(tape: MarketTape | undefined, outcome: Outcome): number {
  if (!tape) return UNIT / 2;
  if (tape.winner !== -1) return tape.winner === outcome ? UNIT : 0;
  return midpointOf(tape.book, tape.last, outcome);
}

export function isAcceptingOrders(record: MarketRecord, tape: MarketTape | undefined): boolean {
  return record.snapshot.acceptingOrders && (tape?.winner ?? -1) === -1;
}

/** Sampling markets: accepting orders, with liquidity rewards configured (a daily rate). */
export function isSampling(record: MarketRecord, tape: MarketTape | undefined): boolean {
  return isAcceptingOrders(record, tape) && record.rewards.rates.length > 0;
}

function statusOf(record: MarketRecord, tape: MarketTape | undefined): string {
  const s = record.snapshot;
  if ((tape?.winner ?? -1) !== -1) return 'resolved';
  if (s.archived) return 'archived';
  if (s.closed) return 'closed';
  return s.active ? 'active' : 'inactive';
}

/** The start of the market's event, standing in for the game start time. */
function startOf(record: MarketRecord): string {
  return record.snapshot.startDate || record.snapshot.createdAt;
}

export function presentSamplingMarket(record: MarketRecord, tape: MarketTape | undefined): SamplingMarket {
  const s = record.snapshot;
  const bps = feeRateBps(s.feeSchedule);
  const resolved = (tape?.winner ?? -1) !== -1;
  return {
    enable_order_book: true,
    active: s.active,
    closed: s.closed || resolved,
    archived: s.archived,
    accepting_orders: isAcceptingOrders(record, tape),
    notifications_enabled: true,
    neg_risk: s.negRisk,
    is_50_50_outcome: false,
    accepting_order_timestamp: s.createdAt,
    condition_id: record.conditionId,
    creator: s.sites[0] ?? '',
    mirror_condition_id: s.mirrorConditionId,
    question_id: s.questionId,
    question: s.question,
    description: s.description,
    market_slug: s.slug,
    end_date_iso: s.endDate,
    game_start_time: startOf(record),
    fpmm: '',
    neg_risk_market_id: s.negRiskMarketId,
    neg_risk_request_id: s.negRisk ? s.questionId : '',
    icon: s.icon,
    image: s.image,
    minimum_order_size: unitsAsNumber(s.minOrderSizeUnits),
    minimum_tick_size: unitsAsNumber(s.tickSizeUnits),
    seconds_delay: 0,
    maker_base_fee: s.feeSchedule.takerOnly ? 0 : bps,
    taker_base_fee: bps,
    rewards: record.rewards,
    tokens: s.tokenIds.map((tokenId, outcome) => ({
      token_id: tokenId,
      mirror_token_id: s.mirrorTokenIds[outcome] ?? '',
      outcome: s.outcomes[outcome]!,
      price: unitsAsNumber(tokenPrice(tape, outcome as Outcome)),
      winner: tape?.winner === outcome,
    })),
    tags: s.tags,
  };
}

export function presentClobMarket(record: MarketRecord, tape: MarketTape | undefined): ClobMarket {
  const s = record.snapshot;
  return {
    ...presentSamplingMarket(record, tape),
    status: statusOf(record, tape),
    slug: s.slug,
    market_id: s.id,
    assets_ids: [...s.tokenIds],
    outcomes: [...s.outcomes],
    event: {
      id: String(s.eventId),
      slug: s.eventSlug,
      title: s.eventTitle,
      ticker: s.eventTicker ?? s.eventSlug,
      description: s.eventDescription ?? '',
    },
    raw_metadata: { category: s.category, sites: s.sites },
  };
}

/** The simplified lists: the sampling form cut to what upstream's simplified market holds. */
export function presentSimplifiedMarket(record: MarketRecord, tape: MarketTape | undefined): SimplifiedMarket {
  const { condition_id, rewards, tokens, active, closed, archived, accepting_orders } = presentSamplingMarket(record, tape);
  return { condition_id, rewards, tokens, active, closed, archived, accepting_orders };
}

/** GET /clob-markets/{condition_id}: the abbreviated keys (docs/market-data.md). */
export function presentMarketInfo(record: MarketRecord, tape: MarketTape | undefined): ClobMarketInfo {
  const s = record.snapshot;
  const fee = feeRateOf(s.feeSchedule, s.category);
  return {
    c: record.conditionId,
    creator: s.sites[0] ?? '',
    mirror_condition_id: s.mirrorConditionId,
    t: s.tokenIds.map((tokenId, outcome) => ({ t: tokenId, mirror_token_id: s.mirrorTokenIds[outcome] ?? '', o: s.outcomes[outcome]! })),
    mts: unitsAsNumber(s.tickSizeUnits),
    mos: unitsAsNumber(s.minOrderSizeUnits),
    nr: s.negRisk,
    fd: fee.fd,
    mbf: s.feeSchedule.takerOnly ? 0 : fee.base_fee,
    tbf: fee.base_fee,
    r: record.rewards,
    gst: startOf(record),
    ao: isAcceptingOrders(record, tape),
    aot: s.createdAt,
    sd: 0,
    rfqe: false,
    itode: false,
    ibce: false,
    oas: 0,
  };
}
