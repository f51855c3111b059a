import fc from 'fast-check';
import { callerOrderIds, cancelByIds, expireOrders } from '../../../src/engine/cancel-orders';
import type { OrderState } from '../../../src/engine/model';
import { endResolvedOrders, resolve, split } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import { aMarket, anOrder, CONDITION, expectConserved, expectIndexesAgree, fund, newEngine, NO, traderOf, YES, NOW } from '../../support/engine-fixture';

const traders = [1, 2, 3].map(traderOf);
const OTHER = `0x${'d0'.repeat(32)}`;
const markets = [
  { conditionId: CONDITION, tokens: [YES, NO] },
  { conditionId: OTHER, tokens: ['3333', '4444'] },
];
const trader = fc.integer({ min: 0, max: 2 });
const market = fc.integer({ min: 0, max: 1 });

const command = fc.oneof(
  { weight: 24, arbitrary: fc.record({
    kind: fc.constant('order' as const),
    trader,
    market,
    outcome: fc.integer({ min: 0, max: 1 }),
    side: fc.constantFrom('BUY' as const, 'SELL' as const),
    cents: fc.integer({ min: 30, max: 70 }),
    size: fc.integer({ min: 5, max: 20 }),
    type: fc.constantFrom('GTC' as const, 'GTD' as const, 'GTD' as const, 'FAK' as const),
    lead: fc.integer({ min: 61, max: 100 }),
  }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('cancel' as const), trader, pick: fc.nat() }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cancel-where' as const), trader, market: fc.option(market) }) },
  { weight: 8, arbitrary: fc.record({ kind: fc.constant('tick' as const), seconds: fc.integer({ min: 0, max: 60 }) }) },
  // Rare, as a resolved market takes no more orders.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('resolve' as const), market }) },
);

const byExpirationThenSeq = (a: OrderState, b: OrderState) => a.expiration - b.expiration || a.seq - b.seq;

describe('the open-order indexes over random command streams', () => {
  it('agree with the resting orders, and expiry, cancel-all and resolution end exactly the orders they should', () => {
    const ended = { expired: 0, canceledWhere: 0, resolved: 0, ticksOfSeveralSeconds: 0 };
    fc.assert(
      fc.property(fc.array(command, { minLength: 40, maxLength: 120 }), (commands) => {
        const state = newEngine();
        state.addMarket(aMarket({ conditionId: OTHER, tokenIds: ['3333', '4444'] }));
        for (const t of traders) {
          fund(state, t, '1000');
          for (const m of markets) split(state, t.address, m.conditionId, 200_000_000, NOW);
        }
        const placed: string[][] = traders.map(() => []);
        let now = 1_700_000_000_000;
        for (const c of commands) {
          now += 1;
          const before = [...state.orders.values()];
          if (c.kind === 'order') {
            const t = traders[c.trader]!;
            const m = markets[c.market]!;
            const marketable = c.type === 'FAK';
            const collateral = marketable && c.side === 'BUY' ? ((c.size * c.cents) / 100).toFixed(2) : undefined;
            const expiration = c.type === 'GTD' ? Math.floor(now / 1000) + c.lead : 0;
            const price = (c.cents / 100).toFixed(2);
            const order = anOrder(t, { token: m.tokens[c.outcome], side: c.side, price, size: String(c.size), type: c.type, expiration, collateral });
            const result = placeOrder(state, t, order, now);
            if (result.success) placed[c.trader]!.push(result.orderID);
          } else if (c.kind === 'cancel') {
            const ids = placed[c.trader]!;
            if (ids.length) cancelByIds(state, traders[c.trader]!, [ids[c.pick % ids.length]!], now);
          } else if (c.kind === 'cancel-where') {
            const { apiKey, address } = traders[c.trader]!;
            const keep = (o: OrderState) => c.market === null || o.conditionId === markets[c.market]!.conditionId;
            const expected = before.filter((o) => (o.owner === apiKey || o.maker === address) && keep(o)).map((o) => o.id);
            expect(cancelByIds(state, traders[c.trader]!, callerOrderIds(state, traders[c.trader]!, keep), now).canceled).toEqual(expected);
            ended.canceledWhere += expected.length;
          } else if (c.kind === 'tick') {
            now += c.seconds * 1000;
            // A GTD order ends 60 s before its stated expiration.
            const expected = before.filter((o) => o.expiration > 0 && (o.expiration - 60) * 1000 <= now).sort(byExpirationThenSeq);
            expect(expireOrders(state, now)).toEqual(expected.map((o) => o.id));
            expect(expected.every((o) => o.status === 'CANCELED')).toBe(true);
            ended.expired += expected.length;
            if (new Set(expected.map((o) => o.expiration)).size > 1) ended.ticksOfSeveralSeconds++;
          } else {
            const conditionId = markets[c.market]!.conditionId;
            const expected = before.filter((o) => o.conditionId === conditionId);
            const resolvedBefore = state.markets.get(conditionId)!.winningOutcome !== -1;
            // In steps of 2 (stepped-cancels.ts), the later ones run at once.
            const result = resolve(state, conditionId, 0, now, 2);
            // A resolved market rests no orders and is not resolved again.
            if (resolvedBefore) {
              expect(result).toMatchObject({ ok: false, body: { code: 'market_resolved' } });
              expect(expected).toEqual([]);
            } else {
              expect(result).toEqual({ ok: true, data: { canceled: Math.min(2, expected.length), later: expected.slice(2).map((o) => o.id) } });
              if (result.ok) endResolvedOrders(state, result.data.later, now);
            }
            expect(state.markets.get(conditionId)!.winningOutcome).toBe(0);
            expect(expected.every((o) => o.status === 'CANCELED_MARKET_RESOLVED')).toBe(true);
            ended.resolved += expected.length;
          }
          expectIndexesAgree(state);
          expectConserved(state);
          for (const m of markets) expect(state.markets.get(m.conditionId)!.book.size).toBe(state.byMarket.of(m.conditionId).size);
        }
      }),
      { numRuns: 60 },
    );
    // The streams must really end orders each way, or the checks above would hold trivially.
    expect(ended.expired).toBeGreaterThan(100);
    expect(ended.ticksOfSeveralSeconds).toBeGreaterThan(10);
    expect(ended.canceledWhere).toBeGreaterThan(50);
    expect(ended.resolved).toBeGreaterThan(30);
  });
});
