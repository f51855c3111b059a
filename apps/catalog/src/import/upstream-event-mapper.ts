import { z } from 'zod';
import { CONDITION_ID_PATTERN, describeIssues, holdsUnstorableText, importedEventInput, TICK_SIZES, TOKEN_ID_PATTERN, UNSTORABLE_TEXT } from '@exchange/contracts';
import { errorMessage } from '@exchange/service-kit';
import type { NewEvent } from '../admin/new-event';

const text = z.string().nullish();
const flag = z.boolean().nullish();

const upstreamTag = z.object({ label: text, slug: text });
const upstreamSeries = z.object({
  slug: z.string(),
  title: z.string(),
  ticker: text,
  seriesType: text,
  recurrence: text,
  image: text,
  icon: text,
});
const upstreamMarket = z.object({
  question: z.string(),
  slug: z.string(),
  conditionId: z.string().regex(CONDITION_ID_PATTERN, 'conditionId must be 0x + 64 hex'),
  description: text,
  resolutionSource: text,
  image: text,
  icon: text,
  startDate: text,
  endDate: text,
  outcomes: z.string(),
  clobTokenIds: z.string(),
  orderPriceMinTickSize: z.number().nullish(),
  orderMinSize: z.number().nullish(),
  negRisk: flag,
  active: flag,
  closed: flag,
  archived: flag,
  acceptingOrders: flag,
  feeSchedule: z
    .object({ rate: z.number(), exponent: z.number().nullish(), takerOnly: flag, rebateRate: z.number().nullish() })
    .nullish(),
});
const upstreamEvent = z.object({
  id: z.union([z.string(), z.number()]),
  slug: z.string(),
  title: z.string(),
  ticker: text,
  description: text,
  resolutionSource: text,
  image: text,
  icon: text,
  category: text,
  startDate: text,
  endDate: text,
  active: flag,
  closed: flag,
  archived: flag,
  tags: z.array(upstreamTag).nullish(),
  series: z.array(upstreamSeries).nullish(),
  eventMetadata: z.record(z.string(), z.unknown()).nullish(),
  markets: z.array(upstreamMarket).min(1, 'an event needs markets'),
});

const CATEGORIES = ['politics', 'sports', 'crypto', 'finance', 'culture', 'mentions', 'weather', 'economics', 'tech'];

/**
 * Upstream dates come as ISO 8601, with fractions, or as "YYYY-MM-DD hh:mm:ss+00"; absent or empty is
 * no date. One that cannot be read skips its event, as an operator's is refused: until the twenty-first
 * session it read as absent, and the event was created with another date in its place (found by a probe).
 */
export function normalizeDate(value: string | null | undefined, name: string): string | undefined {
  if (!value) return undefined;
  const match = UPSTREAM_DATE.exec(value.trim());
  const date = match && new Date(`${match[1]}T${match[2] ?? '00:00'}${match[3] ?? ''}${utcOffset(match[4])}`);
  // JavaScript's own reading takes "1" or "March 7" for dates of 2001 and rolls February 31 into March.
  if (!match || Number.isNaN(date!.getTime()) || new Date(`${match[1]}T00:00:00Z`).toISOString().slice(0, 10) !== match[1]) {
    throw new Error(`${name} is not a date: ${JSON.stringify(value.slice(0, 100))}`);
  }
  return date!.toISOString();
}

/** ISO 8601 dates and date-times as upstream writes them: a space for the T, offsets of "+00" and "+0000" too. */
const UPSTREAM_DATE = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2})(:\d{2}(?:\.\d{1,9})?)?([zZ]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** An offset JavaScript reads; none is UTC, as upstream's dates are. */
function utcOffset(offset: string | undefined): string {
  if (offset === undefined || offset.toUpperCase() === 'Z') return 'Z';
  const digits = offset.slice(1).replace(':', '');
  return `${offset[0]}${digits.slice(0, 2)}:${digits.slice(2) || '00'}`;
}

function jsonPair(value: string, name: string): [string, string] {
  const parsed: unknown = JSON.parse(value);
  if (!Array.isArray(parsed) || parsed.length !== 2 || !parsed.every((v) => typeof v === 'string')) {
    throw new Error(`${name} must be a JSON array of two strings`);
  }
  return [parsed[0], parsed[1]];
}

export type MappedEvent = { event: NewEvent } | { skip: string };

/**
 * One upstream catalog event (as the upstream GET /events returns it) to an event of this exchange. The
 * upstream condition and token ids become the mirror ids; local ids are derived as for any market.
 */
export function mapUpstreamEvent(raw: unknown, sites: string[]): MappedEvent {
  const parsed = upstreamEvent.safeParse(raw);
  if (!parsed.success) return { skip: describeIssues(parsed.error) };
  const e = parsed.data;
  try {
    const markets = e.markets.map((m) => {
      const tickSize = TICK_SIZES.find((t) => Number(t) === (m.orderPriceMinTickSize ?? 0.01));
      if (!tickSize) throw new Error(`market ${m.slug}: unsupported tick size ${m.orderPriceMinTickSize}`);
      const tokens = jsonPair(m.clobTokenIds, 'clobTokenIds');
      // Upstream's token ids are uint256: a larger one, or one id for both outcomes, is no upstream market.
      if (!tokens.every((t) => TOKEN_ID_PATTERN.test(t) && BigInt(t) < 2n ** 256n)) throw new Error(`market ${m.slug}: token ids must be decimal numbers below 2^256`);
      if (tokens[0] === tokens[1]) throw new Error(`market ${m.slug}: both outcomes have token id ${tokens[0]}`);
      return {
        input: {
          question: m.question,
          slug: m.slug,
          outcomes: jsonPair(m.outcomes, 'outcomes'),
          tickSize,
          minOrderSize: String(m.orderMinSize ?? 5),
          negRisk: m.negRisk ?? false,
          description: m.description ?? '',
          resolutionSource: m.resolutionSource ?? '',
          image: m.image ?? '',
          icon: m.icon ?? '',
          startDate: normalizeDate(m.startDate, `market ${m.slug}: startDate`),
          endDate: normalizeDate(m.endDate, `market ${m.slug}: endDate`),
          feeSchedule: m.feeSchedule
            ? {
                rate: m.feeSchedule.rate,
                exponent: m.feeSchedule.exponent ?? 1,
                takerOnly: m.feeSchedule.takerOnly ?? true,
                rebateRate: m.feeSchedule.rebateRate ?? 0,
              }
            : undefined,
        },
        mirrorConditionId: m.conditionId.toLowerCase(),
        mirrorTokenIds: tokens,
        flags: { active: m.active ?? true, closed: m.closed ?? false, archived: m.archived ?? false, acceptingOrders: m.acceptingOrders ?? true },
      };
    });
    const tagNames = (e.tags ?? []).map((t) => t.slug || t.label).filter((t): t is string => !!t);
    const first = e.series?.[0];
    const candidate = importedEventInput.safeParse({
      title: e.title,
      slug: e.slug,
      description: e.description ?? '',
      endDate: normalizeDate(e.endDate, 'endDate') ?? markets.map((m) => m.input.endDate).find((d) => d),
      startDate: normalizeDate(e.startDate, 'startDate'),
      ticker: e.ticker ?? undefined,
      resolutionSource: e.resolutionSource ?? '',
      image: e.image ?? '',
      icon: e.icon ?? '',
      tags: tagNames,
      category: e.category?.toLowerCase() ?? tagNames.find((t) => CATEGORIES.includes(t)),
      series: first
        ? {
            slug: first.slug,
            title: first.title,
            ticker: first.ticker ?? undefined,
            seriesType: first.seriesType ?? 'single',
            recurrence: first.recurrence ?? '',
            image: first.image ?? '',
            icon: first.icon ?? '',
          }
        : undefined,
      sites,
      eventMetadata: e.eventMetadata ?? {},
      markets: markets.map((m) => m.input),
    });
    if (!candidate.success) return { skip: describeIssues(candidate.error) };
    // The gateway checks the request's own text; a market's outcomes are JSON inside it, read only here
    // (a NUL in them failed the database write and stopped the whole import; found by a probe).
    if (holdsUnstorableText(candidate.data)) return { skip: UNSTORABLE_TEXT };
    const flags = { active: e.active ?? true, closed: e.closed ?? false, archived: e.archived ?? false };
    return {
      event: {
        ...candidate.data,
        mirrorId: String(e.id),
        flags,
        // A closed or archived event's markets are too, as when the operator closes an event: upstream
        // data has closed events with markets still open, which traded here.
        markets: candidate.data.markets.map((m, i) => ({
          ...m,
          mirrorConditionId: markets[i]!.mirrorConditionId,
          mirrorTokenIds: markets[i]!.mirrorTokenIds,
          flags: { ...markets[i]!.flags, closed: markets[i]!.flags.closed || flags.closed, archived: markets[i]!.flags.archived || flags.archived },
        })),
      },
    };
  } catch (error) {
    return { skip: errorMessage(error) };
  }
}
