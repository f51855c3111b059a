import type { IncomingMessage } from 'node:http';
import { RequestMethod, type Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { AdminTokenGuard } from '../../src/admin/admin-token.guard';
import { AuthController } from '../../src/auth/auth.controller';
import { L2AuthGuard } from '../../src/auth/l2-auth.guard';
import { EventsController } from '../../src/catalog/events.controller';
import { MarketsController } from '../../src/catalog/markets.controller';
import { TagsController } from '../../src/catalog/tags.controller';
import { controllersOf } from '../../src/gateway.module';
import { clientAddress } from '../../src/http/client-address';
import { routeLimits, scaled } from '../../src/rate-limits/rate-limit-rules';

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
      { name: 'clob', limit: 5_000, windowSeconds: 10 },
      { name: 'order-burst', limit: 2_400, windowSeconds: 10 },
      { name: 'order-sustained', limit: 24_000, windowSeconds: 600 },
    ]);
    expect(routeLimits('DELETE', '/order')!.buckets.map((b) => b.name)).toEqual(['clob', 'cancel-burst', 'cancel-sustained']);
    expect(routeLimits('POST', '/orders')!.buckets).toEqual(routeLimits('POST', '/order')!.buckets);
    for (const route of ['/orders', '/cancel-all', '/cancel-market-orders']) {
      expect(routeLimits('DELETE', route)!.buckets).toEqual(routeLimits('DELETE', '/order')!.buckets);
    }
    expect(routeLimits('GET', '/events')!.buckets.map((b) => b.name)).toEqual(['catalog', 'events', 'listings']);
    expect(routeLimits('GET', '/markets')!.buckets.map((b) => b.name)).toEqual(['clob', 'markets', 'listings']);
    expect(routeLimits('HEAD', '/book')).toEqual(routeLimits('GET', '/book'));
    expect(routeLimits('GET', '/no/such/path')).toEqual({ buckets: [{ name: 'clob', limit: 5_000, windowSeconds: 10 }], keyed: false });
  });

  it('scale every limit, keeping at least one request', () => {
    expect(scaled({ name: 'x', limit: 2_400, windowSeconds: 10 }, 0.5).limit).toBe(1_200);
    expect(scaled({ name: 'x', limit: 50, windowSeconds: 10 }, 0.001).limit).toBe(1);
    expect(scaled({ name: 'x', limit: 80, windowSeconds: 10 }, 10)).toEqual({ name: 'x', limit: 800, windowSeconds: 10 });
  });
});

describe('clientAddress', () => {
  const request = (forwardedFor?: string | string[]) =>
    ({ socket: { remoteAddress: '10.0.0.9' }, headers: forwardedFor === undefined ? {} : { 'x-forwarded-for': forwardedFor } }) as unknown as IncomingMessage;

  it('is the socket address unless proxies are trusted', () => {
    expect(clientAddress(request('1.2.3.4'), 0)).toBe('10.0.0.9');
  });

  it('takes the address the outermost trusted proxy saw, not what the client wrote', () => {
    expect(clientAddress(request('1.2.3.4'), 1)).toBe('1.2.3.4');
    expect(clientAddress(request('6.6.6.6, 1.2.3.4'), 1)).toBe('1.2.3.4');
    expect(clientAddress(request(['6.6.6.6', '1.2.3.4, 10.1.1.1']), 2)).toBe('1.2.3.4');
    expect(clientAddress(request(), 1)).toBe('10.0.0.9');
    expect(clientAddress(request('1.2.3.4'), 5)).toBe('1.2.3.4');
  });
});
