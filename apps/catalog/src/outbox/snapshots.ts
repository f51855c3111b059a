import type { EventSnapshot, MarketSnapshot } from '@exchange/contracts';
import type { Event, Market, MarketSite } from '../generated/prisma/client';

type MarketRow = Market & { sites: MarketSite[] };
type EventRow = Event & { tags: { tag: { slug: string } }[] };

/** Orders are accepted only while every flag allows it. */
export function isAcceptingOrders(market: Market): boolean {
  return market.acceptingOrders && market.active && !market.closed && !market.archived;
}

export function marketSnapshot(market: MarketRow, event: EventRow): MarketSnapshot {
  return {
    id: market.id,
    eventId: event.id,
    eventSlug: event.slug,
    eventTitle: event.title,
    eventTicker: event.ticker,
    eventDescription: event.description,
    category: event.category,
    tags: event.tags.map((t) => t.tag.slug),
    slug: market.slug,
    question: market.question,
    description: market.description,
    conditionId: market.conditionId,
    questionId: market.questionId,
    mirrorConditionId: market.mirrorConditionId,
    outcomes: [market.outcomes[0]!, market.outcomes[1]!],
    tokenIds: [market.tokenIds[0]!, market.tokenIds[1]!],
    mirrorTokenIds: [market.mirrorTokenIds[0] ?? '', market.mirrorTokenIds[1] ?? ''],
    tickSizeUnits: market.tickSize,
    minOrderSizeUnits: Number(market.minOrderSize),
    negRisk: market.negRisk,
    negRiskMarketId: market.negRiskMarketId,
    feeSchedule: {
      ratePpm: market.feeRatePpm,
      exponent: market.feeExponent,
      takerOnly: market.feeTakerOnly,
      rebateRatePpm: market.rebateRatePpm,
    },
    active: market.active,
    closed: market.closed,
    archived: market.archived,
    acceptingOrders: isAcceptingOrders(market),
    endDate: market.endDate.toISOString(),
    startDate: market.startDate.toISOString(),
    icon: market.icon,
    image: market.image,
    sites: market.sites.map((s) => s.siteId),
    createdAt: market.createdAt.toISOString(),
    updatedAt: market.updatedAt.toISOString(),
  };
}

export function eventSnapshot(event: Event, marketIds: number[]): EventSnapshot {
  return {
    id: event.id,
    slug: event.slug,
    title: event.title,
    category: event.category,
    active: event.active,
    closed: event.closed,
    archived: event.archived,
    marketIds,
    updatedAt: event.updatedAt.toISOString(),
  };
}
