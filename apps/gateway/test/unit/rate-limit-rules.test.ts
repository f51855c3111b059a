import { RequestMethod, type Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { AdminTokenGuard } from '../../src/admin/admin-token.guard';
import { AuthController } from '../../src/auth/auth.controller';
import { L2AuthGuard } from '../../src/auth/l2-auth.guard';
import { EventsController } from '../../src/catalog/events.controller';
import { MarketsController } from '../../src/catalog/markets.controller';
import { TagsController } from '../../src/catalog/tags.controller';
import { controllersOf } from '../../src/gateway.module';
import { CLOB_MARKET_ROUTE, itemsOf, routeLimits, scaled, type Bucket } from '../../src/rate-limits/rate-limit-rules';

/** Every route of the gateway as Fastify registers it, with the guards Nest runs for it. */
function routes() {
  const joined = (...parts: string[]) => `/${parts.map((p) => p.replace(/^\/|\/$/g, '')).filter(Boolean).join('/')}`;
  return [...controllersOf('combined'), AuthController].flatMap((controller: Type<unknown>) => {
    const prefix = Reflect.getMetadata(PATH_METADATA, controller) as string;
    const classGuards = (Reflect.getMetadata(GUARDS_METADATA, controller) ?? []) as unknown[];
    const proto = controller.prototype as Record<string, unknown>;
    return Object.getOwnPropertyNames(proto)
      .map((name) => proto[name])
      .filter((handler) => typeof handler === 'function' && Reflect.hasMetadata(METHOD_METADATA, handler))
      .map((handler) => ({
        controller,
        method: RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler as object) as number]!,
        route: joined(prefix, Reflect.getMetadata(PATH_METADATA, handler as object) as string),
        guards: [...classGuards, ...((Reflect.getMetadata(GUARDS_METADATA, handler as object) ?? []) as unknown[])],
      }));
  });
}

describe('rate limit rules', () => {
  it('count exactly the L2 routes per API key, leave the operator routes alone, and group the catalog routes', () => {
    const all = routes();
    expect(all.length).toBeGreaterThan(50);
    for (const { controller, method, route, guards } of all) {
      const limits = routeLimits(method, route);
      if (guards.includes(AdminTokenGuard)) {
        expect([method, route, limits]).toEqual([method, route, null]);
        continue;
      }
      expect([method, route, limits?.keyed]).toEqual([method, route, guards.includes(L2AuthGuard)]);
      const catalog = [EventsController, MarketsController, TagsController].includes(controller as never);
      expect([route, limits!.buckets[0]!.name]).toEqual([route, catalog ? 'catalog' : 'clob']);
    }
  });

  it('give trading writes a burst and a sustained bucket, and listings their shared one', () => {
    expect(routeLimits('POST', '/order')!.buckets).toEqual([
      { name: 'clob', limit: 5_000, windowSeconds: 10, perItem: false },
      { name: 'order-burst', limit: 2_400, windowSeconds: 10, perItem: true },
      { name: 'order-sustained', limit: 24_000, windowSeconds: 600, perItem: true },
    ]);
    expect(routeLimits('DELETE', '/order')!.buckets.map((b) => b.name)).toEqual(['clob', 'cancel-burst', 'cancel-sustained']);
    expect(routeLimits('POST', '/orders')!.buckets).toEqual(routeLimits('POST', '/order')!.buckets);
    for (const route of ['/orders', '/cancel-all', '/cancel-market-orders']) {
      expect(routeLimits('DELETE', route)!.buckets).toEqual(routeLimits('DELETE', '/order')!.buckets);
    }
    expect(routeLimits('GET', '/events')!.buckets.map((b) => b.name)).toEqual(['catalog', 'events', 'listings']);
    expect(routeLimits('GET', '/markets')!.buckets.map((b) => b.name)).toEqual(['clob', 'markets', 'listings']);
    expect(routeLimits('HEAD', '/book')).toEqual(routeLimits('GET', '/book'));
    expect(routeLimits('GET', '/no/such/path')).toEqual({ buckets: [{ name: 'clob', limit: 5_000, windowSeconds: 10, perItem: false }], keyed: false });
    // Only the trading writes' buckets count what a request carries.
    const perItem = new Set(['order-burst', 'order-sustained', 'cancel-burst', 'cancel-sustained']);
    for (const [method, route] of [['GET', '/events'], ['GET', '/book'], ['POST', '/books'], ['POST', '/orders'], ['DELETE', '/cancel-all']] as const) {
      for (const bucket of routeLimits(method, route)!.buckets) expect(bucket.perItem).toBe(perItem.has(bucket.name));
    }
  });

  it('count the orders of POST /orders and the ids of DELETE /orders, within their bounds, and 1 for anything else', () => {
    expect(itemsOf('POST', '/orders', Array(15).fill({}))).toBe(15);
    expect(itemsOf('POST', '/orders', Array(40).fill({}))).toBe(15);
    expect(itemsOf('POST', '/orders', [])).toBe(1);
    expect(itemsOf('POST', '/orders', { order: {} })).toBe(1);
    expect(itemsOf('DELETE', '/orders', Array(1_000).fill('0x'))).toBe(1_000);
    expect(itemsOf('DELETE', '/orders', Array(5_000).fill('0x'))).toBe(1_000);
    expect(itemsOf('POST', '/order', Array(15).fill({}))).toBe(1);
    expect(itemsOf('DELETE', '/cancel-all', Array(15).fill('0x'))).toBe(1);
  });

  it('scale every limit, keeping at least one request', () => {
    expect(scaled({ name: 'x', limit: 2_400, windowSeconds: 10 }, 0.5).limit).toBe(1_200);
    expect(scaled({ name: 'x', limit: 50, windowSeconds: 10 }, 0.001).limit).toBe(1);
    expect(scaled({ name: 'x', limit: 80, windowSeconds: 10 }, 10)).toEqual({ name: 'x', limit: 800, windowSeconds: 10 });
  });
});

type Figure = Pick<Bucket, 'limit' | 'windowSeconds'>;
const per10s = (limit: number): Figure => ({ limit, windowSeconds: 10 });
const per10min = (limit: number): Figure => ({ limit, windowSeconds: 600 });

/** SPEC.md, "Limits", row by row, the figures copied by hand (not from the rules). */
const SPEC_LIMITS: [row: string, figures: Figure[]][] = [
  ['All catalog routes', [per10s(4_000)]],
  ['GET /events', [per10s(500)]],
  ['GET /markets', [per10s(300)]],
  ['Combined event and market listings', [per10s(900)]],
  ['GET /tags', [per10s(200)]],
  ['GET /public-search', [per10s(350)]],
  ['All CLOB routes', [per10s(5_000)]],
  ['GET /', [per10s(50)]],
  ['GET /book', [per10s(200)]],
  ['POST /books', [per10s(80)]],
  ['GET /price', [per10s(200)]],
  ['POST /prices', [per10s(80)]],
  ['GET /midpoint', [per10s(200)]],
  ['GET /prices-history', [per10s(100)]],
  ['POST /batch-prices-history', [per10s(80)]],
  ['GET /data/trades', [per10s(150)]],
  // "Trading writes must satisfy both the burst and the sustained limit."
  ['POST /order', [per10s(2_400), per10min(24_000)]],
  ['DELETE /order', [per10s(2_400), per10min(24_000)]],
];
const spec = new Map(SPEC_LIMITS);
const LISTINGS = ['GET /events', 'GET /markets'];
/** The endpoint rows; the surface of each as README's port table has it (GET /markets is the CLOB listing). */
const ENDPOINT_ROWS = SPEC_LIMITS.map(([row]) => row).filter((row) => /^[A-Z]+ \//.test(row));
const CATALOG_ENDPOINTS = new Set(['GET /events', 'GET /tags', 'GET /public-search']);

const figures = (buckets: readonly Bucket[]) => buckets.map(({ limit, windowSeconds }) => ({ limit, windowSeconds }));
const limitsOf = (endpoint: string) => {
  const [method, route] = endpoint.split(' ') as [string, string];
  return routeLimits(method, route)!;
};

describe("rate limit rules against SPEC.md's Limits table", () => {
  it('has every row of the table (the copy above is whole)', () => {
    expect(SPEC_LIMITS).toHaveLength(18);
    expect(ENDPOINT_ROWS).toHaveLength(15);
  });

  it.each(ENDPOINT_ROWS)('%s: its surface bucket first, then exactly the rows that name it', (endpoint) => {
    const { buckets } = limitsOf(endpoint);
    const surface = CATALOG_ENDPOINTS.has(endpoint) ? 'All catalog routes' : 'All CLOB routes';
    const expected = [...spec.get(endpoint)!, ...(LISTINGS.includes(endpoint) ? spec.get('Combined event and market listings')! : [])];
    expect(figures(buckets.slice(0, 1))).toEqual(spec.get(surface));
    expect(figures(buckets.slice(1))).toEqual(expected);
  });

  it('shares one listings bucket between GET /events and GET /markets', () => {
    const listing = (endpoint: string) => limitsOf(endpoint).buckets.find((b) => b.limit === 900)!;
    expect(listing('GET /events')).toBeDefined();
    expect(listing('GET /events')).toEqual(listing('GET /markets'));
    // Their own buckets are not shared.
    expect(limitsOf('GET /events').buckets[1]!.name).not.toBe(limitsOf('GET /markets').buckets[1]!.name);
  });

  it('counts HEAD as its GET', () => {
    for (const endpoint of ENDPOINT_ROWS.filter((row) => row.startsWith('GET '))) {
      expect([endpoint, limitsOf(`HEAD ${endpoint.slice(4)}`)]).toEqual([endpoint, limitsOf(endpoint)]);
    }
  });

  it("puts every other route in its surface's bucket alone, but for docs/gateway.md's decisions", () => {
    // docs/gateway.md, "Rate limits": the batch writes take the buckets of the single ones, and the
    // other batch reads 80 per 10 s each, as POST /books and /prices.
    const decisions = new Map<string, Figure[]>([
      ['POST /orders', spec.get('POST /order')!],
      ['DELETE /orders', spec.get('DELETE /order')!],
      ['DELETE /cancel-all', spec.get('DELETE /order')!],
      ['DELETE /cancel-market-orders', spec.get('DELETE /order')!],
      ['POST /midpoints', [per10s(80)]],
      ['POST /spreads', [per10s(80)]],
      ['POST /last-trades-prices', [per10s(80)]],
    ]);
    const checked = routes().filter(({ guards }) => !guards.includes(AdminTokenGuard));
    expect(checked.length).toBeGreaterThan(40);
    for (const { controller, method, route } of checked) {
      const endpoint = `${method} ${route}`;
      const { buckets } = limitsOf(endpoint);
      const catalog = [EventsController, MarketsController, TagsController].includes(controller as never);
      expect([endpoint, figures(buckets.slice(0, 1))]).toEqual([endpoint, spec.get(catalog ? 'All catalog routes' : 'All CLOB routes')]);
      if (spec.has(endpoint)) continue;
      expect([endpoint, figures(buckets.slice(1))]).toEqual([endpoint, decisions.get(endpoint) ?? []]);
    }
    // The CLOB form of GET /markets/{id} (README) is a CLOB route, with no bucket of its own.
    expect(figures(routeLimits('GET', CLOB_MARKET_ROUTE)!.buckets)).toEqual(spec.get('All CLOB routes'));
  });
});

