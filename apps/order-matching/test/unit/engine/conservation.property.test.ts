import fc from 'fast-check';
import { cancelByIds } from '../../../src/engine/cancel-orders';
import type { EngineState } from '../../../src/engine/engine-state';
import { merge, split } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import { anOrder, CONDITION, expectConserved, fund, newEngine, NO, traderOf, YES } from '../../support/engine-fixture';

const traders = [1, 2, 3, 4].map(traderOf);

const command = fc.oneof(
  { weight: 8, arbitrary: fc.record({
    kind: fc.constant('order' as const),
    trader: fc.integer({ min: 0, max: 3 }),
    token: fc.constantFrom(YES, NO),
    side: fc.constantFrom('BUY' as const, 'SELL' as const),
    cents: fc.integer({ min: 30, max: 70 }),
    size: fc.integer({ min: 5, max: 40 }),
    type: fc.constantFrom('GTC' as const, 'GTC' as const, 'FOK' as const, 'FAK' as const),
    postOnly: fc.boolean(),
  }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('cancel' as const), trader: fc.integer({ min: 0, max: 3 }), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('split' as const), trader: fc.integer({ min: 0, max: 3 }), size: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('merge' as const), trader: fc.integer({ min: 0, max: 3 }), size: fc.integer({ min: 1, max: 30 }) }) },
);

/** What the open orders reserve must be exactly what the ledger holds reserved, per account and asset. */
function expectReservationsMatch(state: EngineState): void {
  const expected = new Map<string, number>();
  for (const order of state.orders.values()) {
    const key = `${order.maker}|${order.reservedAsset}`;
    expected.set(key, (expected.get(key) ?? 0) + order.reserved);
  }
  for (const trader of traders) {
    for (const [asset, balance] of state.ledger.holdings(trader.address)) {
      expect(balance.reserved).toBe(expected.get(`${trader.address}|${asset}`) ?? 0);
      expect(balance.available).toBeGreaterThanOrEqual(0);
    }
  }
}

describe('conservation over random command streams', () => {
  it.each([
    ['without fees', { ratePpm: 0, exponent: 1, takerOnly: true, rebateRatePpm: 0 }],
    ['with taker fees and rebates', { ratePpm: 70_000, exponent: 1, takerOnly: true, rebateRatePpm: 200_000 }],
    ['with maker fees too', { ratePpm: 30_000, exponent: 2, takerOnly: false, rebateRatePpm: 500_000 }],
  ])('%s', (_name, fee) => {
    let trades = 0;
    fc.assert(
      fc.property(fc.array(command, { minLength: 40, maxLength: 120 }), (commands) => {
        const state = newEngine(fee);
        for (const trader of traders) {
          fund(state, trader, '500');
          split(state, trader.address, CONDITION, 100_000_000);
        }
        const placed: string[][] = traders.map(() => []);
        let now = 1;
        for (const c of commands) {
          const trader = traders[c.trader]!;
          now += 1;
          if (c.kind === 'order') {
            const price = (c.cents / 100).toFixed(2);
            const marketable = c.type !== 'GTC';
            const collateral = marketable && c.side === 'BUY' ? ((c.size * c.cents) / 100).toFixed(2) : undefined;
            const result = placeOrder(
              state,
              trader,
              anOrder(trader, { token: c.token, side: c.side, price, size: String(c.size), type: c.type, postOnly: c.postOnly && !marketable, collateral }),
              now,
            );
            if (result.success) placed[c.trader]!.push(result.orderID);
            trades += result.tradeIDs.length;
          } else if (c.kind === 'cancel') {
            const ids = placed[c.trader]!;
            if (ids.length) cancelByIds(state, trader, [ids[c.pick % ids.length]!], now);
          } else if (c.kind === 'split') {
            split(state, trader.address, CONDITION, c.size * 1_000_000);
          } else {
            merge(state, trader.address, CONDITION, c.size * 1_000_000);
          }
          expectConserved(state);
          expectReservationsMatch(state);
          const book = state.markets.get(CONDITION)!.book;
          expect(book.bestBid()).toBeLessThan(book.bestAsk());
          expect(book.size).toBe(state.orders.size);
        }
      }),
      { numRuns: 50 },
    );
    // The streams must really trade, or the invariants above would hold trivially.
    expect(trades).toBeGreaterThan(250);
  });
});
