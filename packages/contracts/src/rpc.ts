import { z } from 'zod';
import {
  createEventRequest,
  createSiteRequest,
  importRequest,
  patchEventRequest,
  patchMarketRequest,
} from './catalog/admin';
import { getEventRequest, getMarketRequest, listEventsRequest, listTagsRequest, publicSearchRequest } from './catalog/queries';
import { getClobMarketRequest, type ClobMarket } from './clob/markets';
import type {
  CatalogEvent,
  CatalogEventListItem,
  CatalogMarket,
  ImportReport,
  PublicSearchResult,
  Site,
  Tag,
} from './catalog/resources';

const empty = z.object({}).strict();

/**
 * Every NATS request/reply subject with its request schema and response type. Subjects carry their
 * version; a change of shape gets a new subject, so old and new services can run side by side.
 */
export const rpcContract = {
  'catalog.events.list.v1': { request: listEventsRequest, response: {} as CatalogEventListItem[] },
  'catalog.events.get.v1': { request: getEventRequest, response: {} as CatalogEvent },
  'catalog.markets.get.v1': { request: getMarketRequest, response: {} as CatalogMarket },
  'catalog.tags.list.v1': { request: listTagsRequest, response: {} as Tag[] },
  'catalog.search.v1': { request: publicSearchRequest, response: {} as PublicSearchResult },
  'catalog.admin.events.create.v1': { request: createEventRequest, response: {} as CatalogEvent },
  'catalog.admin.events.patch.v1': { request: patchEventRequest, response: {} as CatalogEvent },
  'catalog.admin.markets.patch.v1': { request: patchMarketRequest, response: {} as CatalogMarket },
  'catalog.admin.import.v1': { request: importRequest, response: {} as ImportReport },
  'catalog.admin.sites.create.v1': { request: createSiteRequest, response: {} as Site },
  'catalog.admin.sites.list.v1': { request: empty, response: {} as Site[] },
  'marketdata.markets.get.v1': { request: getClobMarketRequest, response: {} as ClobMarket },
} as const;

export type RpcSubject = keyof typeof rpcContract;
/** What a caller may send: the schema's input (strings from a query string are accepted). */
export type RpcRequestInput<S extends RpcSubject> = z.input<(typeof rpcContract)[S]['request']>;
/** What a handler receives after validation. */
export type RpcRequest<S extends RpcSubject> = z.output<(typeof rpcContract)[S]['request']>;
export type RpcResponse<S extends RpcSubject> = (typeof rpcContract)[S]['response'];

/** NATS headers every request carries. */
export const RPC_HEADERS = { requestId: 'x-request-id', schemaVersion: 'x-schema-version' } as const;
