import { MAX_BATCH_ORDERS, MAX_CANCEL_IDS } from '@exchange/contracts';

/** One token bucket: `limit` requests at once, refilled at `limit` per `windowSeconds`. */
export interface Bucket {
  name: string;
  limit: number;
  windowSeconds: number;
  /** Counts the orders or order ids a request carries (`itemsOf`), not the request. */
  perItem?: boolean;
}

/** What limits a request: its buckets (all must admit it), and whether they count per the API key's address. */
export interface RouteLimits {
  buckets: Bucket[];
  /** True for L2 routes: counted per the API key's address once authenticated; otherwise per client address. */
  keyed: boolean;
}

const bucket = (name: string, limit: number, windowSeconds = 10, perItem = false): Bucket => ({ name, limit, windowSeconds, perItem });

// SPEC.md, "Limits".
const CATALOG = bucket('catalog', 4_000);
const CLOB = bucket('clob', 5_000);
const LISTINGS = bucket('listings', 900);
// Per order and per order id, as upstream's per-signer buckets count (UPSTREAM.md, "Rate limiting").
const ORDERS = [bucket('order-burst', 2_400, 10, true), bucket('order-sustained', 24_000, 600, true)];
const CANCELS = [bucket('cancel-burst', 2_400, 10, true), bucket('cancel-sustained', 24_000, 600, true)];

/** `GET /markets/{id}` where it answers the CLOB form (README): not a route pattern, a CLOB route. */
export const CLOB_MARKET_ROUTE = '/markets/{condition_id}';

/** Route patterns (as Fastify registers them) of the catalog surface's routes; everything else is CLOB. */
const CATALOG_ROUTES = new Set(['/events', '/events/:id', '/events/slug/:slug', '/markets/:id', '/tags', '/public-search']);

const ENDPOINTS = new Map<string, Bucket[]>([
  ['GET /events', [bucket('events', 500), LISTINGS]],
  ['GET /markets', [bucket('markets', 300), LISTINGS]],
  ['GET /tags', [bucket('tags', 200)]],
  ['GET /public-search', [bucket('public-search', 350)]],
  ['GET /', [bucket('root', 50)]],
  ['GET /book', [bucket('book', 200)]],
  ['POST /books', [bucket('books', 80)]],
  ['GET /price', [bucket('price', 200)]],
  ['POST /prices', [bucket('prices', 80)]],
  ['GET /midpoint', [bucket('midpoint', 200)]],
  ['GET /prices-history', [bucket('prices-history', 100)]],
  ['POST /batch-prices-history', [bucket('batch-prices-history', 80)]],
  ['GET /data/trades', [bucket('data-trades', 150)]],
  ['POST /order', ORDERS],
  ['DELETE /order', CANCELS],
  // Not in the table: the batch forms share the buckets of the single ones, a token per order or id
  // they carry, or they would be a way around them (until the twenty-fifth session a token per request:
  // one key could send 3,600 orders a second, more than these machines' whole exchange serves). A
  // cancel-all or a cancel by market takes one: what it ends was counted when it was placed.
  ['POST /orders', ORDERS],
  ['DELETE /orders', CANCELS],
  ['DELETE /cancel-all', CANCELS],
  ['DELETE /cancel-market-orders', CANCELS],
  // Not in the table either: the other batch reads take up to 500 tokens each, as POST /books and
  // POST /prices do, and get their limit; with only the CLOB surface's 5,000 one address could keep
  // both cores busy (found by a security probe).
  ['POST /midpoints', [bucket('midpoints', 80)]],
  ['POST /spreads', [bucket('spreads', 80)]],
  ['POST /last-trades-prices', [bucket('last-trades-prices', 80)]],
]);

/** The routes behind L2AuthGuard (a unit test holds this list to the controllers). */
export const KEYED_ROUTES = new Set([
  'POST /order',
  'POST /orders',
  'DELETE /order',
  'DELETE /orders',
  'DELETE /cancel-all',
  'DELETE /cancel-market-orders',
  'GET /data/order/:id',
  'GET /data/orders',
  'GET /data/pre-migration-orders',
  'GET /data/trades',
  'GET /order-scoring',
  'POST /orders-scoring',
  'GET /balance-allowance',
  'GET /balance-allowance/update',
  'PUT /balance-allowance',
  'POST /v1/heartbeats',
  'POST /heartbeats',
  'POST /split',
  'POST /merge',
  'POST /redeem',
  'GET /auth/api-keys',
  'DELETE /auth/api-key',
  'GET /auth/ban-status/closed-only',
]);

/** `METHOD /route`, a HEAD counted as its GET. */
const endpointOf = (method: string, route: string) => `${method === 'HEAD' ? 'GET' : method} ${route}`;

/**
 * The limits of a request by method and route pattern (a path without a route is limited as a CLOB route,
 * so that a flood of unknown paths is counted too), or null for the operator API, which has its bearer
 * token instead.
 */
export function routeLimits(method: string, route: string): RouteLimits | null {
  if (route.startsWith('/admin/')) return null;
  const endpoint = endpointOf(method, route);
  return {
    buckets: [CATALOG_ROUTES.has(route) ? CATALOG : CLOB, ...(ENDPOINTS.get(endpoint) ?? [])],
    keyed: KEYED_ROUTES.has(endpoint),
  };
}

/** Whether a route is behind L2 authentication, without building its limits (asked of every request). */
export function isKeyedRoute(method: string, route: string): boolean {
  return KEYED_ROUTES.has(endpointOf(method, route));
}

/** A bucket with every limit multiplied by the operator's `RATE_LIMIT_SCALE` (at least 1 request). */
export function scaled(bucket: Bucket, scale: number): Bucket {
  return { ...bucket, limit: Math.max(1, Math.round(bucket.limit * scale)) };
}

/** What a request carries for its per-item buckets: 1 to 15 orders, 1 to 1,000 ids (1 for any other body or route). */
export function itemsOf(method: string, route: string, body: unknown): number {
  const most = method === 'POST' && route === '/orders' ? MAX_BATCH_ORDERS : method === 'DELETE' && route === '/orders' ? MAX_CANCEL_IDS : 0;
  return most > 0 && Array.isArray(body) ? Math.min(Math.max(body.length, 1), most) : 1;
}
