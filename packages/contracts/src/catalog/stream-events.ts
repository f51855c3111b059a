import { z } from 'zod';

/**
 * What the catalog publishes on JetStream after each committed change. Every message carries the full
 * state of the thing that changed (event-carried state transfer), so consumers upsert by id and a replay
 * of the stream rebuilds their read model.
 */
export const feeScheduleSnapshot = z.object({
  /** Parts per million of the taker fee formula's rate (40000 = 0.04). */
  ratePpm: z.number().int().min(0).max(1_000_000),
  exponent: z.number().int().min(0),
  takerOnly: z.boolean(),
  rebateRatePpm: z.number().int().min(0).max(1_000_000),
});
export type FeeScheduleSnapshot = z.output<typeof feeScheduleSnapshot>;

/** A schedule's taker rate in basis points: trades' `fee_rate_bps`, `/fee-rate`'s `base_fee`, `taker_base_fee` (ARCHITECTURE.md). */
export function feeRateBps(schedule: Pick<FeeScheduleSnapshot, 'ratePpm'>): number {
  return Math.round(schedule.ratePpm / 100);
}

export const marketSnapshot = z.object({
  id: z.number().int(),
  eventId: z.number().int(),
  eventSlug: z.string(),
  eventTitle: z.string(),
  /** Added later: absent in older messages. */
  eventTicker: z.string().optional(),
  eventDescription: z.string().optional(),
  category: z.string(),
  tags: z.array(z.string()),
  slug: z.string(),
  question: z.string(),
  description: z.string(),
  conditionId: z.string(),
  questionId: z.string(),
  mirrorConditionId: z.string(),
  outcomes: z.tuple([z.string(), z.string()]),
  tokenIds: z.tuple([z.string(), z.string()]),
  mirrorTokenIds: z.tuple([z.string(), z.string()]),
  /** Base units (6 decimals): 10000 = a tick of 0.01. */
  tickSizeUnits: z.number().int().positive(),
  /** Base units of shares: 5000000 = 5 shares. */
  minOrderSizeUnits: z.number().int().positive(),
  negRisk: z.boolean(),
  negRiskMarketId: z.string(),
  feeSchedule: feeScheduleSnapshot,
  active: z.boolean(),
  closed: z.boolean(),
  archived: z.boolean(),
  acceptingOrders: z.boolean(),
  endDate: z.string(),
  /** ISO 8601; absent in older messages. */
  startDate: z.string().optional(),
  icon: z.string(),
  image: z.string(),
  sites: z.array(z.string()),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type MarketSnapshot = z.output<typeof marketSnapshot>;

export const eventSnapshot = z.object({
  id: z.number().int(),
  slug: z.string(),
  title: z.string(),
  category: z.string(),
  active: z.boolean(),
  closed: z.boolean(),
  archived: z.boolean(),
  marketIds: z.array(z.number().int()),
  updatedAt: z.string(),
});
export type EventSnapshot = z.output<typeof eventSnapshot>;

export const catalogStreamMessages = {
  'catalog.evt.event.created.v1': eventSnapshot,
  'catalog.evt.event.updated.v1': eventSnapshot,
  'catalog.evt.market.created.v1': marketSnapshot,
  'catalog.evt.market.updated.v1': marketSnapshot,
} as const;
export type CatalogStreamSubject = keyof typeof catalogStreamMessages;
export type CatalogStreamPayload<S extends CatalogStreamSubject> = z.output<(typeof catalogStreamMessages)[S]>;

/** JetStream stream that holds the catalog's change events. */
export const CATALOG_STREAM = { name: 'CATALOG', subjects: 'catalog.evt.>' } as const;
