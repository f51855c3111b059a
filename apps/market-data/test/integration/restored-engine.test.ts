import { Logger } from '@nestjs/common';
import type { BookEvent, BookSnapshotsPage } from '@exchange/contracts';
import { until } from '@exchange/testing';
import { aMarketSnapshot, startMarketData, u, type MarketDataUnderTest } from '../support/market-data-harness';

const T = 1_700_000_000_000;

describe("market-data when order-matching's database goes back in time (real PostgreSQL, Redis, NATS and JetStream)", () => {
  let md: MarketDataUnderTest;
  const market = aMarketSnapshot();
  const [yes] = market.tokenIds;
  const cid = market.conditionId;
  /** What the engine answers now (order-matching is not running in this test). */
  const engine: BookSnapshotsPage[] = [];
  const warn = jest.spyOn(Logger.prototype, 'warn');
  const regressions = () => warn.mock.calls.filter(([message]) => /^MATCHING row ids? (went back|\d+ came again)/.test(String(message))).map(([m]) => String(m));

  beforeAll(async () => {
    md = await startMarketData();
    md.answerAsEngine('matching.books.snapshots.v1', engine);
    await md.publishMarket(market);
    await md.untilMarketKnown(cid);
  });
  afterAll(() => md?.stop());

  const bid = (bookSeq: number, price: string, size = '10'): BookEvent => ({
    conditionId: cid,
    bookSeq,
    changes: [{ side: 'BID', price: u(price), size: u(size) }],
    timestamp: T + bookSeq,
  });
  const bids = async () => (await md.data('marketdata.book.v1', { token_id: yes })).bids.map((l) => l.price);
  const engineHas = (bookSeq: number, prices: string[]) => {
    engine.length = 0;
    engine.push({
      markets: [
        {
          conditionId: cid,
          bookSeq,
          timestamp: T + bookSeq,
          levels: prices.map((price) => ({ side: 'BID' as const, price: u(price), size: u('10') })),
          winningOutcome: -1,
          lastTrade: null,
        },
      ],
      next: null,
    });
  };

  it('loads the books from order-matching when its row ids go back, then applies its new events', async () => {
    await md.publishRow(1n, [{ type: 'book', data: bid(1, '0.1') }]);
    await md.publishRow(2n, [{ type: 'book', data: bid(2, '0.11') }]);
    await md.publishRow(3n, [{ type: 'book', data: bid(3, '0.45') }]);
    await until(async () => ((await bids()).length === 3 ? true : undefined));

    // Restored from a backup taken after row 1: the bid at 0.11 (row 2) is gone, the one at 0.45 was
    // placed again (bookSeq 2), then a new bid at 0.2 (bookSeq 3) went out as row 2 and 3 again.
    engineHas(3, ['0.1', '0.2', '0.45']);
    await md.publishRow(2n, [{ type: 'book', data: bid(2, '0.45') }]);
    await md.publishRow(3n, [{ type: 'book', data: bid(3, '0.2') }]);
    await until(async () => ((await bids()).join() === '0.1,0.2,0.45' ? true : undefined), 10_000, "the engine's bids");
    expect(regressions()).toEqual([
      "MATCHING row ids went back from 3 to 2: order-matching's database is older than the events already applied (restored from a backup?) " +
        'or republished rows; loading the books from order-matching',
    ]);

    // Its next rows go on from there.
    await md.publishRow(4n, [{ type: 'book', data: bid(4, '0.3') }]);
    await until(async () => ((await bids()).join() === '0.1,0.2,0.3,0.45' ? true : undefined));
    expect(regressions()).toHaveLength(1);
  });

  it('remembers the highest row id across a restart, from the message at its snapshot', async () => {
    // A restart replays nothing as a regression, and the next row goes on.
    await md.restart();
    expect(await bids()).toEqual(['0.1', '0.2', '0.3', '0.45']);
    await md.publishRow(5n, [{ type: 'book', data: bid(5, '0.31') }]);
    await until(async () => ((await bids()).includes('0.31') ? true : undefined));
    expect(regressions()).toHaveLength(1);

    // Restored once more, to before row 5, while market-data was down: the first row it sees after its
    // restart reuses id 5 and bookSeq 5.
    await md.restart(async () => {
      engineHas(5, ['0.1', '0.2', '0.3', '0.45', '0.32']);
      await md.publishRow(5n, [{ type: 'book', data: bid(5, '0.32') }]);
    });
    await until(async () => ((await bids()).join() === '0.1,0.2,0.3,0.32,0.45' ? true : undefined), 10_000, "the engine's bids");
    expect(regressions()).toHaveLength(2);
    expect(regressions()[1]).toMatch(/^MATCHING row id 5 came again:/);
  });
});
