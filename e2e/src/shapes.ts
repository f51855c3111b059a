/**
 * The JSON types of SPEC.md's catalog resources, checked field by field: the exact set of keys and
 * each value's type. `iso` is an ISO 8601 UTC string; `jsonArray` a JSON array serialized as text.
 */
type Kind = 'string' | 'boolean' | 'number' | 'integer' | 'iso' | 'jsonArray' | 'object' | 'strings' | Shape | [Shape];
export interface Shape {
  [field: string]: Kind;
}

const flags = { active: 'boolean', closed: 'boolean', archived: 'boolean' } as const;

export const TAG: Shape = { id: 'string', label: 'string', slug: 'string', createdAt: 'iso', updatedAt: 'iso', requiresTranslation: 'boolean' };

export const SERIES: Shape = {
  id: 'string',
  ticker: 'string',
  slug: 'string',
  title: 'string',
  seriesType: 'string',
  recurrence: 'string',
  image: 'string',
  icon: 'string',
  ...flags,
  createdAt: 'iso',
  updatedAt: 'iso',
};

export const EVENT_SUMMARY: Shape = {
  id: 'string',
  ticker: 'string',
  slug: 'string',
  title: 'string',
  description: 'string',
  resolutionSource: 'string',
  image: 'string',
  icon: 'string',
  startDate: 'iso',
  creationDate: 'iso',
  endDate: 'iso',
  createdAt: 'iso',
  updatedAt: 'iso',
  ...flags,
};

export const EVENT_MARKET: Shape = {
  id: 'string',
  question: 'string',
  conditionId: 'string',
  mirrorConditionId: 'string',
  slug: 'string',
  resolutionSource: 'string',
  image: 'string',
  icon: 'string',
  description: 'string',
  outcomes: 'jsonArray',
  clobTokenIds: 'jsonArray',
  mirrorClobTokenIds: 'jsonArray',
  questionID: 'string',
  negRisk: 'boolean',
  negRiskMarketID: 'string',
  acceptingOrders: 'boolean',
  orderPriceMinTickSize: 'number',
  orderMinSize: 'number',
  startDate: 'iso',
  endDate: 'iso',
  createdAt: 'iso',
  updatedAt: 'iso',
  ...flags,
};

export const CATALOG_MARKET: Shape = { ...EVENT_MARKET, events: [EVENT_SUMMARY] };

export const CATALOG_EVENT: Shape = {
  ...EVENT_SUMMARY,
  tags: [TAG],
  markets: [EVENT_MARKET],
  series: [SERIES],
  eventMetadata: 'object',
};

const { creationDate: _omitted, ...listSummary } = EVENT_SUMMARY;
export const EVENT_LIST_ITEM: Shape = {
  ...listSummary,
  tags: [TAG],
  markets: [{ id: 'string', question: 'string', conditionId: 'string', mirrorConditionId: 'string', clobTokenIds: 'jsonArray', mirrorClobTokenIds: 'jsonArray' }],
};

/** CLOB resources of SPEC.md (market-data). */
const REWARDS: Shape = { rates: [{ asset_address: 'string', rewards_daily_rate: 'number' }], min_size: 'number', max_spread: 'number' };

export const SAMPLING_MARKET: Shape = {
  enable_order_book: 'boolean',
  active: 'boolean',
  closed: 'boolean',
  archived: 'boolean',
  accepting_orders: 'boolean',
  notifications_enabled: 'boolean',
  neg_risk: 'boolean',
  is_50_50_outcome: 'boolean',
  accepting_order_timestamp: 'iso',
  condition_id: 'string',
  creator: 'string',
  mirror_condition_id: 'string',
  question_id: 'string',
  question: 'string',
  description: 'string',
  market_slug: 'string',
  end_date_iso: 'iso',
  game_start_time: 'iso',
  fpmm: 'string',
  neg_risk_market_id: 'string',
  neg_risk_request_id: 'string',
  icon: 'string',
  image: 'string',
  minimum_order_size: 'number',
  minimum_tick_size: 'number',
  seconds_delay: 'number',
  maker_base_fee: 'number',
  taker_base_fee: 'number',
  rewards: REWARDS,
  tokens: [{ token_id: 'string', mirror_token_id: 'string', outcome: 'string', price: 'number', winner: 'boolean' }],
  tags: 'strings',
};

export const CLOB_MARKET: Shape = {
  ...SAMPLING_MARKET,
  status: 'string',
  slug: 'string',
  market_id: 'integer',
  assets_ids: 'strings',
  outcomes: 'strings',
  event: { id: 'string', slug: 'string', title: 'string', ticker: 'string', description: 'string' },
  raw_metadata: 'object',
};

const FEE_DETAILS: Shape = { r: 'number', e: 'integer', to: 'boolean' };

export const CLOB_MARKET_INFO: Shape = {
  gst: 'iso',
  r: REWARDS,
  c: 'string',
  creator: 'string',
  mirror_condition_id: 'string',
  nr: 'boolean',
  t: [{ t: 'string', mirror_token_id: 'string', o: 'string' }],
  mts: 'number',
  mos: 'number',
  fd: FEE_DETAILS,
  mbf: 'number',
  tbf: 'number',
  rfqe: 'boolean',
  itode: 'boolean',
  ibce: 'boolean',
  oas: 'number',
  // Upstream keys beyond SPEC.md's table (docs/market-data.md).
  ao: 'boolean',
  aot: 'iso',
  sd: 'number',
};

export const FEE_RATE: Shape = {
  base_fee: 'number',
  fd: FEE_DETAILS,
  fee_schedule: {
    rate: 'number',
    exponent: 'integer',
    takerOnly: 'boolean',
    rebateRate: 'number',
    category: 'string',
    version: 'integer',
    source: 'string',
  },
};

const LEVEL: Shape = { price: 'string', size: 'string' };
export const ORDER_BOOK: Shape = {
  market: 'string',
  asset_id: 'string',
  timestamp: 'string',
  hash: 'string',
  bids: [LEVEL],
  asks: [LEVEL],
  min_order_size: 'string',
  tick_size: 'string',
  neg_risk: 'boolean',
  last_trade_price: 'string',
};

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

/** Lists every way `value` differs from `shape`; empty when it matches. */
export function shapeErrors(value: unknown, shape: Kind, at = '$'): string[] {
  if (Array.isArray(shape)) {
    if (!Array.isArray(value)) return [`${at}: expected an array`];
    return value.flatMap((v, i) => shapeErrors(v, shape[0]!, `${at}[${i}]`));
  }
  if (typeof shape === 'object') {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return [`${at}: expected an object`];
    const keys = Object.keys(value);
    const missing = Object.keys(shape).filter((k) => !keys.includes(k)).map((k) => `${at}.${k}: missing`);
    const extra = keys.filter((k) => !(k in shape)).map((k) => `${at}.${k}: not in SPEC.md`);
    const types = Object.entries(shape).flatMap(([k, kind]) =>
      k in (value as object) ? shapeErrors((value as Record<string, unknown>)[k], kind, `${at}.${k}`) : [],
    );
    return [...missing, ...extra, ...types];
  }
  const ok = {
    string: typeof value === 'string',
    boolean: typeof value === 'boolean',
    number: typeof value === 'number',
    integer: Number.isInteger(value),
    iso: typeof value === 'string' && ISO.test(value),
    object: typeof value === 'object' && value !== null && !Array.isArray(value),
    jsonArray: typeof value === 'string' && Array.isArray(safeJson(value)),
    strings: Array.isArray(value) && value.every((v) => typeof v === 'string'),
  }[shape];
  return ok ? [] : [`${at}: expected ${shape}, got ${JSON.stringify(value)}`];
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
