import { bookSnapshotsAfter } from '../../../src/engine/book-snapshots';
import { resolve } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import { aMarket, anOrder, CONDITION, fund, newEngine, NO, traderOf, YES } from '../../support/engine-fixture';

const alice = traderOf(1);
const NOW = 1_700_000_000_000;
const conditionOf = (n: number) => `0x${String(n).padStart(64, '0')}`;

describe('book snapshots of the engine', () => {
  it("gives every level of a market's book in YES terms, with the book sequence that includes them and the time of its last change", () => {
    const state = newEngine();
    fund(state, alice, '100');
    const orders = [
      [YES, '0.40', '10'],
      [YES, '0.40', '5'],
      [YES, '0.45', '10'],
      // A bid for NO at 0.30 is an ask for YES at 0.70.
      [NO, '0.30', '10'],
    ] as const;
    for (const [i, [token, price, size]] of orders.entries()) {
      expect(placeOrder(state, alice, anOrder(alice, { token, side: 'BUY', price, size }), NOW - 1_000 * (orders.length - 1 - i)).success).toBe(true);
    }
    const { markets, next } = bookSnapshotsAfter(state, '');
    expect(next).toBeNull();
    expect(markets).toEqual([
      {
        conditionId: CONDITION,
        bookSeq: 4,
        timestamp: NOW,
        levels: [
          { side: 'BID', price: '450000', size: '10000000' },
          { side: 'BID', price: '400000', size: '15000000' },
          { side: 'ASK', price: '700000', size: '10000000' },
        ],
        winningOutcome: -1,
        lastTrade: null,
      },
    ]);
    expect(state.bookSeq.get(CONDITION)).toBe(4);
  });

  it('pages through the markets in condition id order, by count and by levels', () => {
    const state = newEngine();
    for (const n of [5, 3, 9, 1]) state.addMarket(aMarket({ conditionId: conditionOf(n), tokenIds: [`${n}1`, `${n}2`] }));
    fund(state, alice, '100');
    for (const price of ['0.10', '0.20', '0.30']) placeOrder(state, alice, anOrder(alice, { token: '31', side: 'BUY', price, size: '5' }), NOW);
    resolve(state, conditionOf(9), 1, NOW);

    const byCount: string[][] = [];
    for (let after: string | null = ''; after !== null; ) {
      const page = bookSnapshotsAfter(state, after, { markets: 2, levels: 100 });
      byCount.push(page.markets.map((m) => m.conditionId));
      after = page.next;
    }
    const all = [conditionOf(1), conditionOf(3), conditionOf(5), conditionOf(9), CONDITION].sort();
    expect(byCount).toEqual([all.slice(0, 2), all.slice(2, 4), all.slice(4)]);

    // A page that reaches the level limit ends there, but always holds at least one market.
    const first = bookSnapshotsAfter(state, '', { markets: 10, levels: 2 });
    expect(first.markets.map((m) => m.conditionId)).toEqual([conditionOf(1), conditionOf(3)]);
    // A book that never changed has no time of its own (market-data gives it the market's creation).
    expect(first.markets[0]!.timestamp).toBe(0);
    expect(first.markets[1]!.levels).toHaveLength(3);
    expect(first.next).toBe(conditionOf(3));
    const rest = bookSnapshotsAfter(state, first.next!, { markets: 10, levels: 2 });
    expect(rest.markets.find((m) => m.conditionId === conditionOf(9))).toMatchObject({ winningOutcome: 1, levels: [] });
    expect(rest.next).toBeNull();

    // A market added between two pages is on a later page when it sorts after the cursor.
    const firstTwo = bookSnapshotsAfter(state, '', { markets: 2, levels: 100 });
    state.addMarket(aMarket({ conditionId: conditionOf(7), tokenIds: ['71', '72'] }));
    state.addMarket(aMarket({ conditionId: conditionOf(0), tokenIds: ['01', '02'] }));
    const after = bookSnapshotsAfter(state, firstTwo.next!, { markets: 10, levels: 100 });
    expect(after.markets.map((m) => m.conditionId)).toEqual([conditionOf(5), conditionOf(7), conditionOf(9), CONDITION]);
    expect(bookSnapshotsAfter(state, CONDITION)).toEqual({ markets: [], next: null });
  });
});
