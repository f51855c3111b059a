import { z } from 'zod';
import { conditionIdSchema, creatorSchema } from '../common/identifiers';
import { INT32_MAX, queryBool, queryInt, queryList, queryText, queryWordList } from '../common/query';

/** Columns GET /events may sort by: the camelCase names of the response (ARCHITECTURE.md). */
export const EVENT_ORDER_COLUMNS = [
  'id',
  'title',
  'slug',
  'startDate',
  'endDate',
  'createdAt',
  'updatedAt',
  'volume',
  'liquidity',
] as const;
export type EventOrderColumn = (typeof EVENT_ORDER_COLUMNS)[number];

const eventIds = (name: string) => queryList(name, queryInt(name, 1, INT32_MAX), 100);

export const listEventsRequest = z.object({
  limit: queryInt('limit', 1, 100).default(20),
  offset: queryInt('offset', 0, INT32_MAX).default(0),
  active: queryBool('active').optional(),
  closed: queryBool('closed').optional(),
  archived: queryBool('archived').optional(),
  tag: queryText('tag', 200).optional(),
  tag_id: queryInt('tag_id', 1, INT32_MAX).optional(),
  tag_slug: queryText('tag_slug', 200).optional(),
  series_slug: queryText('series_slug', 200).optional(),
  slug: queryText('slug', 200).optional(),
  /** Upstream's `id[]` (also as `id`, once or repeated) and `slug[]`: events that are any of them. */
  id: eventIds('id').optional(),
  'id[]': eventIds('id[]').optional(),
  'slug[]': queryList('slug[]', queryText('slug[]', 200), 100).optional(),
  order: queryWordList('order', EVENT_ORDER_COLUMNS).optional(),
  ascending: queryBool('ascending').default(false),
  creator: creatorSchema.optional(),
});
export type ListEventsRequest = z.output<typeof listEventsRequest>;

const idDigits = z.string().regex(/^\d{1,10}$/, 'id must be a positive integer');

export const getEventRequest = z.object({
  id: queryInt('id', 1, INT32_MAX).optional(),
  slug: queryText('slug', 200).optional(),
  creator: creatorSchema.optional(),
});
export type GetEventRequest = z.output<typeof getEventRequest>;

/** A catalog market id is either its numeric id or its condition id. */
export const getMarketRequest = z.object({
  id: z.union([idDigits.refine((v) => Number(v) >= 1 && Number(v) <= INT32_MAX, 'id out of range'), conditionIdSchema], {
    error: 'id must be a numeric market id (1 to 2147483647) or a 0x condition id',
  }),
  creator: creatorSchema.optional(),
});
export type GetMarketRequest = z.output<typeof getMarketRequest>;

export const TAG_ORDER_COLUMNS = ['id', 'label', 'slug', 'createdAt', 'updatedAt'] as const;

export const listTagsRequest = z.object({
  limit: queryInt('limit', 1, 500).default(100),
  offset: queryInt('offset', 0, INT32_MAX).default(0),
  order: z.enum(TAG_ORDER_COLUMNS, { error: `order must be one of ${TAG_ORDER_COLUMNS.join(', ')}` }).optional(),
  ascending: queryBool('ascending').default(true),
});
export type ListTagsRequest = z.output<typeof listTagsRequest>;

export const EVENTS_STATUS = ['active', 'closed', 'all'] as const;

export const publicSearchRequest = z.object({
  q: queryText('q', 200),
  limit_per_type: queryInt('limit_per_type', 1, 100).default(10),
  page: queryInt('page', 1, 10_000).default(1),
  events_status: z.enum(EVENTS_STATUS, { error: 'events_status must be active, closed or all' }).default('all'),
  keep_closed_markets: queryBool('keep_closed_markets').default(true),
  search_tags: queryBool('search_tags').default(true),
  search_profiles: queryBool('search_profiles').default(true),
  creator: creatorSchema.optional(),
});
export type PublicSearchRequest = z.output<typeof publicSearchRequest>;

