import fc from 'fast-check';
import { cancelByIds, expireOrders } from '../../../src/engine/cancel-orders';
import type { EngineState } from '../../../src/engine/engine-state';
import { COLLATERAL } from '../../../src/engine/ledger';
import { deposit, endResolvedOrders, merge, redeem, resolve, split, withdraw } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import { runAt } from '../../../src/engine/run-at';
import { aMarket, anOrder, CONDITION, expectConserved, fund, newEngine, NO, traderOf, YES, NOW } from '../../support/engine-fixture';

const traders = [1, 2, 3, 4].map(traderOf);
const OTHER = `0x${'d0'.repeat(32)}`;
/** Two markets: one may resolve while the other still trades. */
const markets = [
  { conditionId: CONDITION, tokens: [YES, NO] },
  { conditionId: OTHER, tokens: ['3333', '4444'] },
];
const trader = fc.integer({ min: 0, max: 3 });
const market = fc.integer({ min: 0, max: 1 });
const winner = fc.constantFrom(0 as const, 1 as const);

const command = fc.oneof(
  { weight: 30, arbitrary: fc.record({
    kind: fc.constant('order' as const),
    trader,
    // Mostly the first market: a book of one market's orders crosses often enough to trade.
    market: fc.constantFrom(0, 0, 0, 1),
    outcome: fc.integer({ min: 0, max: 1 }),
    side: fc.constantFrom('BUY' as const, 'SELL' as const),
    cents: fc.integer({ min: 30, max: 70 }),
    size: fc.integer({ min: 5, max: 40 }),
    type: fc.constantFrom('GTC' as const, 'GTC' as const, 'GTD' as const, 'FOK' as const, 'FAK' as const),
    postOnly: fc.boolean(),
    /** A GTD order's expiration, seconds from now: it ends 60 s before (gtd-expiration.ts). */
    lead: fc.integer({ min: 61, max: 90 }),
  }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('cancel' as const), trader, pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('split' as const), trader, market, size: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('merge' as const), trader, market, size: fc.integer({ min: 1, max: 30 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('deposit' as const), trader, cents: fc.integer({ min: 1, max: 5_000 }) }) },
  // Up to more than a trader holds: a refused withdrawal must change nothing.
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('withdraw' as const), trader, cents: fc.integer({ min: 1, max: 60_000 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('tick' as const), seconds: fc.integer({ min: 0, max: 40 }) }) },
  // Rare, and mostly of the second market, as a resolved market takes no more orders; the end game resolves both.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('resolve' as const), market: fc.constantFrom(1, 1, 1, 0), winner }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('redeem' as const), trader, market }) },
  // The next step of what resolutions left to end (steps of 2 orders here: stepped-cancels.ts).
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('step' as const) }) },
);

/** Orders per step of resolutions in these streams: small, so that many streams hold steps. */
const STEP = 2;

/** What the open orders reserve must be exactly what the ledger holds reserved, per account and asset. */
function expectReservationsMatch(state: EngineState): void {
  const expected = new Map<string, number>();
  for (const order of state.orders.values()) {
    const key = `${order.maker}|${order.reservedAsset}`;
    expected.set(key, (expected.get(key) ?? 0) + order.reserved);
  }
  // Compared whole, in one expectation each: this runs after every command of every stream.
  const held = new Map<string, number>();
  const negative: string[] = [];
  for (const trader of traders) {
    for (const [asset, balance] of state.ledger.holdings(trader.address)) {
      if (balance.reserved !== 0) held.set(`${trader.address}|${asset}`, balance.reserved);
      if (!(balance.available >= 0)) negative.push(`${trader.address}|${asset}`);
    }
  }
  expect(held).toEqual(new Map([...expected].filter(([, reserved]) => reserved !== 0)));
  expect(negative).toEqual([]);
}

describe('conservation over random command streams', () => {
  it.each([
    ['without fees', { ratePpm: 0, exponent: 1, takerOnly: true, rebateRatePpm: 0 }],
    ['with taker fees and rebates', { ratePpm: 70_000, exponent: 1, takerOnly: true, rebateRatePpm: 200_000 }],
    ['with maker fees too', { ratePpm: 30_000, exponent: 2, takerOnly: false, rebateRatePpm: 500_000 }],
  ])('%s', (_name, fee) => {
    const done = { trades: 0, deposits: 0, withdrawals: 0, refusedWithdrawals: 0, expired: 0, resolutions: 0, resolutionSteps: 0, payouts: 0 };
    fc.assert(
      fc.property(fc.array(command, { minLength: 40, maxLength: 120 }), fc.tuple(winner, winner), (commands, winners) => {
        const state = newEngine(fee);
        state.addMarket(aMarket({ conditionId: OTHER, tokenIds: ['3333', '4444'], fee }));
        for (const t of traders) {
          fund(state, t, '500');
          for (const m of markets) split(state, t.address, m.conditionId, 100_000_000, NOW);
        }
        const placed: string[][] = traders.map(() => []);
        /** Orders resolutions took off their books and left to later steps. */
        const resolutionLater: string[] = [];
        let now = 1_700_000_000_000;
        for (const c of commands) {
          now += 1;
          // As the engine runs them: the GTD orders due by now end first (run-at.ts).
          runAt(state, now, () => {
            if (c.kind === 'order') {
              const t = traders[c.trader]!;
              const price = (c.cents / 100).toFixed(2);
              const marketable = c.type === 'FOK' || c.type === 'FAK';
              const collateral = marketable && c.side === 'BUY' ? ((c.size * c.cents) / 100).toFixed(2) : undefined;
              const expiration = c.type === 'GTD' ? Math.floor(now / 1000) + c.lead : 0;
              const token = markets[c.market]!.tokens[c.outcome];
              const order = anOrder(t, { token, side: c.side, price, size: String(c.size), type: c.type, postOnly: c.postOnly && !marketable, collateral, expiration });
              const result = placeOrder(state, t, order, now);
              if (result.success) placed[c.trader]!.push(result.orderID);
              done.trades += result.tradeIDs.length;
            } else if (c.kind === 'cancel') {
              const ids = placed[c.trader]!;
              if (ids.length) cancelByIds(state, traders[c.trader]!, [ids[c.pick % ids.length]!], now);
            } else if (c.kind === 'split') {
              split(state, traders[c.trader]!.address, markets[c.market]!.conditionId, c.size * 1_000_000, NOW);
            } else if (c.kind === 'merge') {
              merge(state, traders[c.trader]!.address, markets[c.market]!.conditionId, c.size * 1_000_000, NOW);
            } else if (c.kind === 'deposit') {
              expect(deposit(state, { address: traders[c.trader]!.address, amount: c.cents * 10_000 }, NOW).ok).toBe(true);
              done.deposits++;
            } else if (c.kind === 'withdraw') {
              const address = traders[c.trader]!.address;
              const before = { ...state.ledger.get(address, COLLATERAL) };
              const result = withdraw(state, { address, amount: c.cents * 10_000 }, NOW);
              expect(result.ok).toBe(before.available >= c.cents * 10_000);
              if (result.ok) done.withdrawals++;
              else {
                expect(state.ledger.get(address, COLLATERAL)).toEqual(before);
                done.refusedWithdrawals++;
              }
            } else if (c.kind === 'tick') {
              now += c.seconds * 1000;
              done.expired += expireOrders(state, now).length;
            } else if (c.kind === 'resolve') {
              const result = resolve(state, markets[c.market]!.conditionId, c.winner, now, STEP);
              if (result.ok) {
                done.resolutions++;
                resolutionLater.push(...result.data.later);
              }
            } else if (c.kind === 'step') {
              if (resolutionLater.length > 0) done.resolutionSteps++;
              endResolvedOrders(state, resolutionLater.splice(0, STEP), now);
            } else {
              const result = redeem(state, traders[c.trader]!.address, markets[c.market]!.conditionId, NOW);
              if (result.ok && result.data.payout > 0) done.payouts++;
            }
          });
          expectConserved(state);
          expectReservationsMatch(state);
          // Every open order rests in its book but those that steps have yet to end.
          const offBooks = new Set(resolutionLater);
          for (const m of markets) {
            const book = state.markets.get(m.conditionId)!.book;
            expect(book.bestBid()).toBeLessThan(book.bestAsk());
            expect(book.size).toBe([...state.byMarket.of(m.conditionId)].filter((o) => !offBooks.has(o.id)).length);
          }
        }
        endResolvedOrders(state, resolutionLater, now);

        // The end game: every market resolved, every share redeemed. Then all collateral is in the
        // accounts (the fee account's included), and it is exactly what was deposited less what was withdrawn.
        markets.forEach((m, i) => {
          if (state.markets.get(m.conditionId)!.winningOutcome === -1) expect(resolve(state, m.conditionId, winners[i]!, now).ok).toBe(true);
          expectConserved(state);
        });
        expect(state.orders.size).toBe(0);
        for (const t of traders) {
          for (const m of markets) {
            const held = m.tokens.map((token) => state.ledger.get(t.address, token).available);
            const result = redeem(state, t.address, m.conditionId, NOW);
            const winning = held[state.markets.get(m.conditionId)!.winningOutcome]!;
            expect(result).toEqual(held.some((n) => n > 0) ? { ok: true, data: { payout: winning } } : expect.objectContaining({ ok: false }));
            expectConserved(state);
          }
        }
        for (const m of markets) for (const token of m.tokens) expect(state.ledger.total(token)).toBe(0);
        expect(state.ledger.total(COLLATERAL)).toBe(state.totals.deposits - state.totals.withdrawals);
        expectReservationsMatch(state);
      }),
      { numRuns: 80 },
    );
    // The streams must really trade, move money in and out, expire, resolve and pay out, or the
    // invariants above would hold trivially for those.
    expect(done.trades).toBeGreaterThan(250);
    // Random seeds: 5 to 26 steps in 19 runs of each case (more than 5 failed one CI run).
    expect(done.resolutionSteps).toBeGreaterThan(1);
    expect(done.deposits).toBeGreaterThan(50);
    expect(done.withdrawals).toBeGreaterThan(20);
    expect(done.refusedWithdrawals).toBeGreaterThan(5);
    expect(done.expired).toBeGreaterThan(20);
    expect(done.resolutions).toBeGreaterThan(20);
    expect(done.payouts).toBeGreaterThan(10);
  });
});
