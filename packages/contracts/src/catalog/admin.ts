import { z } from 'zod';
import { ADDRESS_PATTERN, addressSchema, creatorSchema, SITE_ID_PATTERN, slugSchema } from '../common/identifiers';
import { parseUnits } from '../common/decimal';
import { MAX_JSON_DEPTH, openJsonObject } from '../common/open-json';
import { INT32_MAX, queryInt } from '../common/query';

/** Tick sizes the exchange supports (UPSTREAM.md, rounding table). */
export const TICK_SIZES = ['0.1', '0.01', '0.005', '0.0025', '0.001', '0.0001'] as const;
export type TickSize = (typeof TICK_SIZES)[number];

/** Years 1 to 9999 in UTC: PostgreSQL has no year 0, and a 5-digit year is no ISO 8601 date (a 500 until 2026-11-26). */
const isoDate = z.iso
  .datetime({ offset: true, error: 'must be an ISO 8601 date-time' })
  .refine((value) => {
    const year = new Date(value).getUTCFullYear();
    return year >= 1 && year <= 9999;
  }, 'must be a date-time between the years 1 and 9999 (UTC)');

/** A fraction between 0 and 1 with at most 6 decimals, given as a number or a decimal string. */
const fraction = (name: string) =>
  z
    .union([z.number(), z.string()])
    .transform((v, ctx) => {
      const text = typeof v === 'number' ? v.toFixed(6) : v;
      const units = parseUnits(text);
      if (units === null || units > 1_000_000 || (typeof v === 'number' && Math.abs(units / 1e6 - v) > 1e-9)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be between 0 and 1 with at most 6 decimals` });
        return z.NEVER;
      }
      return units;
    });

export const feeScheduleInput = z.object({
  rate: fraction('feeSchedule.rate'),
  exponent: z.number().int().min(0).max(8).default(1),
  takerOnly: z.boolean().default(true),
  rebateRate: fraction('feeSchedule.rebateRate').default(0),
});

const minOrderSize = z
  .string()
  .transform((v, ctx) => {
    const units = parseUnits(v);
    if (units === null || units <= 0 || units % 10_000 !== 0 || units > 1_000_000 * 1_000_000) {
      ctx.addIssue({ code: 'custom', message: 'minOrderSize must be a positive number of shares with at most 2 decimals' });
      return z.NEVER;
    }
    return units;
  });

const text = (name: string, max: number) => z.string().max(max, `${name} must be at most ${max} characters`);

export const createMarketInput = z.object({
  question: text('question', 500).min(1),
  slug: slugSchema,
  outcomes: z.tuple([text('outcome', 100).min(1), text('outcome', 100).min(1)]).default(['Yes', 'No']),
  tickSize: z.enum(TICK_SIZES, { error: `tickSize must be one of ${TICK_SIZES.join(', ')}` }).default('0.01'),
  minOrderSize: minOrderSize.default(5_000_000),
  negRisk: z.boolean().default(false),
  description: text('description', 20_000).default(''),
  resolutionSource: text('resolutionSource', 2_000).default(''),
  image: text('image', 2_000).default(''),
  icon: text('icon', 2_000).default(''),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  feeSchedule: feeScheduleInput.optional(),
});
export type CreateMarketInput = z.output<typeof createMarketInput>;

const seriesInput = z.union([
  slugSchema,
  z.object({
    slug: slugSchema,
    title: text('series.title', 300).min(1),
    ticker: text('series.ticker', 200).optional(),
    seriesType: text('series.seriesType', 100).default('single'),
    recurrence: text('series.recurrence', 100).default(''),
    image: text('series.image', 2_000).default(''),
    icon: text('series.icon', 2_000).default(''),
  }),
]);
export type SeriesInput = z.output<typeof seriesInput>;

/** An event's fields, as an operator creates one and an upstream import maps one. */
const eventFields = z.object({
  title: text('title', 500).min(1),
  slug: slugSchema,
  description: text('description', 20_000),
  endDate: isoDate,
  startDate: isoDate.optional(),
  ticker: text('ticker', 200).optional(),
  resolutionSource: text('resolutionSource', 2_000).default(''),
  image: text('image', 2_000).default(''),
  icon: text('icon', 2_000).default(''),
  tags: z.array(text('tag', 100).min(1)).max(20).default([]),
  /** The event's category tag (politics, sports, ...); also used by the leaderboard. */
  category: text('category', 100).optional(),
  series: seriesInput.optional(),
  sites: z.array(creatorSchema).max(50).default([]),
  eventMetadata: openJsonObject('eventMetadata', MAX_JSON_DEPTH).default({}),
  markets: z.array(createMarketInput).min(1, 'an event needs at least one market').max(100),
});
export type CreateEventInput = z.output<typeof eventFields>;

/**
 * An operator's event or market may not end before it starts (a market's dates default to its event's).
 * Imports are not held to it: upstream catalogs carry such dates, and they are kept as published.
 */
function endsAfterStart(
  event: { startDate?: string; endDate: string; markets: { startDate?: string; endDate?: string }[] },
  ctx: z.RefinementCtx,
): void {
  const endsBefore = (start: string | undefined, end: string) => start !== undefined && Date.parse(end) < Date.parse(start);
  if (endsBefore(event.startDate, event.endDate)) {
    ctx.addIssue({ code: 'custom', path: ['endDate'], message: 'endDate must not be before startDate' });
  }
  event.markets.forEach((market, i) => {
    // A market with neither date of its own has the event's, refused above when they are out of order.
    if ((market.startDate ?? market.endDate) === undefined) return;
    if (endsBefore(market.startDate ?? event.startDate, market.endDate ?? event.endDate)) {
      ctx.addIssue({ code: 'custom', path: ['markets', i, 'endDate'], message: "a market's endDate must not be before its startDate (each defaults to the event's)" });
    }
  });
}

/**
 * A market's outcomes are told apart by name in any case (a resolution may name its winner so: with
 * `Yes` and `yes`, the second could never be named), and an event's markets are all neg-risk or none (a
 * neg-risk event is one set of mutually exclusive outcomes; a mixed one left some of its markets outside
 * it). Both were accepted from operators until the eighteenth session (found by a probe of operator
 * actions), and from imports until the twenty-first.
 */
function oneMeaningEach(event: { markets: { outcomes: [string, string]; negRisk: boolean }[] }, ctx: z.RefinementCtx): void {
  event.markets.forEach((market, i) => {
    if (market.outcomes[0].toLowerCase() === market.outcomes[1].toLowerCase()) {
      ctx.addIssue({ code: 'custom', path: ['markets', i, 'outcomes'], message: "a market's two outcomes must differ in more than case" });
    }
  });
  if (new Set(event.markets.map((m) => m.negRisk)).size > 1) {
    ctx.addIssue({ code: 'custom', path: ['markets'], message: "an event's markets must all be negRisk or none" });
  }
}

export const createEventInput = eventFields.superRefine(endsAfterStart).superRefine(oneMeaningEach);
/**
 * An event as an upstream import maps it: the operator's create without its date order. Until the
 * twenty-first session without `oneMeaningEach` either (a probe imported outcomes `Yes` and `yes`).
 */
export const importedEventInput = eventFields.superRefine(oneMeaningEach);

const flagsPatch = {
  active: z.boolean().optional(),
  closed: z.boolean().optional(),
  archived: z.boolean().optional(),
};

const atLeastOne = (v: Record<string, unknown>) => Object.values(v).some((x) => x !== undefined);

export const patchEventInput = z
  .object(flagsPatch)
  .strict()
  .refine(atLeastOne, 'give at least one of active, closed, archived');

/** A market's flags, and its trading settings (docs/catalog.md, "A market's settings"). */
export const patchMarketInput = z
  .object({
    ...flagsPatch,
    acceptingOrders: z.boolean().optional(),
    tickSize: z.enum(TICK_SIZES, { error: `tickSize must be one of ${TICK_SIZES.join(', ')}` }).optional(),
    minOrderSize: minOrderSize.optional(),
    feeSchedule: feeScheduleInput.optional(),
  })
  .strict()
  .refine(atLeastOne, 'give at least one of active, closed, archived, acceptingOrders, tickSize, minOrderSize, feeSchedule');

const idParam = queryInt('id', 1, INT32_MAX);

export const createEventRequest = z.object({ body: createEventInput });
export const patchEventRequest = z.object({ id: idParam, body: patchEventInput });
export const patchMarketRequest = z.object({
  id: z.union([z.string().regex(/^0x[0-9a-fA-F]{64}$/), idParam], { error: 'id must be a numeric market id (1 to 2147483647) or a condition id' }),
  body: patchMarketInput,
});
export type PatchEventRequest = z.output<typeof patchEventRequest>;
export type PatchMarketRequest = z.output<typeof patchMarketRequest>;

export const createSiteRequest = z.object({
  id: z
    .string()
    .regex(SITE_ID_PATTERN, 'id must be lowercase letters, digits and dashes (at most 63)')
    // `creator` takes a site id or a creator address: an id shaped like an address could not be named.
    .refine((id) => !ADDRESS_PATTERN.test(id), 'id must not look like a wallet address (creator filters read those as addresses)'),
  name: text('name', 200).min(1),
  creatorAddress: addressSchema,
});
export type CreateSiteRequest = z.output<typeof createSiteRequest>;

/**
 * Upstream events are open objects, checked field by field by the catalog, which skips an event that
 * fails (its eventMetadata nested past MAX_JSON_DEPTH included) and imports the rest. This looser bound
 * only keeps a hostile event off NATS, whose JSON encoding recursion fails some thousands of levels deep.
 */
const UPSTREAM_EVENT_MAX_DEPTH = 256;

/** Upstream events as GET /events of the upstream catalog returns them; checked loosely, field by field. */
export const importRequest = z.object({
  events: z.array(openJsonObject('an upstream event', UPSTREAM_EVENT_MAX_DEPTH)).min(1).max(1_000),
  sites: z.array(creatorSchema).max(50).default([]),
});
export type ImportRequest = z.output<typeof importRequest>;

export const getImportRequest = z.object({ id: z.uuid({ error: 'id must be an import id (a UUID)' }) });
export type GetImportRequest = z.output<typeof getImportRequest>;
