import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { ok, type BookEvent, type BookSnapshotsPage, type TradeHistoryPage } from '@exchange/contracts';
import { until } from '@exchange/testing';
import { aMarketSnapshot, startMarketData, u, type MarketDataUnderTest } from '../support/market-data-harness';

const T = 1_700_000_000_000;

describe('market-data with a gap in a book that never fills (real PostgreSQL, Redis, NATS and JetStream)', () => {
  let md: MarketDataUnderTest;
  const markets = [aMarketSnapshot(), aMarketSnapshot()];
  const [a, b] = markets.map((m) => m.conditionId) as [string, string];
  /** What the engine answers (order-matching is not running in this test), and how often it was asked for its books. */
  let engine: BookSnapshotsPage = { markets: [], next: null };
  const engineTrades: TradeHistoryPage[] = [];
  let bookRequests = 0;
  const warn = jest.spyOn(Logger.prototype, 'warn');
  const stale = () => warn.mock.calls.map(([m]) => String(m)).filter((m) => m.includes('still missing'));

  beforeAll(async () => {
    md = await startMarketData({ BOOK_GAP_GRACE_MS: '1500' });
    md.answer('matching.books.snapshots.v1', () => {
      bookRequests++;
      return ok(engine);
    });
    md.answerAsEngine('matching.trades.history.v1', engineTrades);
    for (const m of markets) {
      await md.publishMarket(m);
      await md.untilMarketKnown(m.conditionId);
    }
  });
  afterAll(() => md?.stop());

  const bid = (conditionId: string, bookSeq: number, price: string): BookEvent => ({
    conditionId,
    bookSeq,
    changes: [{ side: 'BID', price: u(price), size: u('10') }],
    timestamp: T + bookSeq,
  });
  const bids = async (conditionId: string) => {
    const token = markets.find((m) => m.conditionId === conditionId)!.tokenIds[0];
    return (await md.data('marketdata.book.v1', { token_id: token })).bids.map((l) => l.price).join();
  };
  const prices = async () => {
    const db = new Client({ connectionString: md.databaseUrl });
    await db.connect();
    const rows = await db.query<{ trade_id: string }>('SELECT trade_id FROM price_history ORDER BY trade_id').finally(() => db.end());
    return rows.rows.map((r) => r.trade_id);
  };

  it('waits for late events: a gap filled within the grace period loads nothing', async () => {
    await md.publishBook(bid(a, 1, '0.1'));
    await md.publishBook(bid(a, 3, '0.3'));
    await md.publishBook(bid(a, 2, '0.2'));
    await until(async () => ((await bids(a)) === '0.1,0.2,0.3' ? true : undefined));
    // Past the grace period of the gap before bookSeq 3.
    await new Promise((r) => setTimeout(r, 2_000));
    expect(stale()).toEqual([]);
    expect(bookRequests).toBe(0);
  });

  it('loads the books from order-matching, once for every market, when gaps stay open, and refills the lost trades', async () => {
    // The engine has what the lost events did (bookSeq 4 of a, 1 of b, and a trade), and the new events.
    engine = {
      markets: [
        { conditionId: a, bookSeq: 5, timestamp: T + 5, levels: ['0.1', '0.2', '0.3', '0.4', '0.5'].map((p) => ({ side: 'BID', price: u(p), size: u('10') })), winningOutcome: -1, lastTrade: null },
        { conditionId: b, bookSeq: 2, timestamp: T + 2, levels: ['0.6', '0.7'].map((p) => ({ side: 'BID', price: u(p), size: u('10') })), winningOutcome: -1, lastTrade: null },
      ],
      next: null,
    };
    engineTrades.push({
      trades: [
        { id: 'trade-lost', conditionId: a, tokenId: markets[0]!.tokenIds[0]!, side: 'BUY', size: u('10'), price: u('0.4'), collateral: u('4'), matchTime: T + 4, makers: [] },
      ],
      next: null,
    });
    await md.publishBatch([
      { type: 'book', data: bid(a, 5, '0.5') },
      { type: 'book', data: bid(b, 2, '0.7') },
    ]);
    await until(async () => ((await bids(a)) === '0.1,0.2,0.3,0.4,0.5' ? true : undefined), 15_000, "a's book from the engine");
    expect(await bids(b)).toBe('0.6,0.7');
    expect(bookRequests).toBe(1);
    // The first gap to go stale is named; its reload covered the other market's too.
    expect(stale()).toEqual([
      `book of ${a}: events before bookSeq 5 still missing after 1500 ms (lost from the stream); loading the books from order-matching`,
    ]);
    await until(async () => ((await prices()).includes('trade-lost') ? true : undefined), 10_000, 'the lost trade in the price history');

    // The next events apply on top, and the books are complete again: nothing more is loaded.
    await md.publishBook(bid(a, 6, '0.6'));
    await until(async () => ((await bids(a)) === '0.1,0.2,0.3,0.4,0.5,0.6' ? true : undefined));
    await new Promise((r) => setTimeout(r, 2_000));
    expect(bookRequests).toBe(1);
  });

  it('watches a gap saved in a snapshot after a restart', async () => {
    await md.publishBook(bid(b, 4, '0.8'));
    await until(async () => ((await bids(b)) === '0.6,0.7,0.8' ? true : undefined));
    // Stopped before the grace period ended: the gap comes back from the snapshot.
    await md.restart();
    await until(async () => (bookRequests === 2 ? true : undefined), 15_000, 'a reload after the restart');
    await until(async () => ((await bids(b)) === '0.6,0.7' ? true : undefined));
  });
});
