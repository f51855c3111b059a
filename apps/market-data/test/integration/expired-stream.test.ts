import { MATCHING_STREAM, type BookSnapshotsPage, type TradeHistoryPage } from '@exchange/contracts';
import { Client } from 'pg';
import { streamName } from '@exchange/service-kit';
import { until } from '@exchange/testing';
import { aMarketSnapshot, aTrade, startMarketData, u, type MarketDataUnderTest } from '../support/market-data-harness';

const T = 1_700_000_000_000;

describe('market-data whose position in the MATCHING stream is gone (real PostgreSQL, Redis, NATS and JetStream)', () => {
  let md: MarketDataUnderTest;
  const market = aMarketSnapshot();
  const settled = aMarketSnapshot();
  const [yes, no] = market.tokenIds;
  const cid = market.conditionId;

  beforeAll(async () => {
    md = await startMarketData();
    for (const m of [market, settled]) {
      await md.publishMarket(m);
      await md.untilMarketKnown(m.conditionId);
    }
  });
  afterAll(() => md?.stop());
  beforeAll(() => {
    md.answerAsEngine('matching.books.snapshots.v1', engine);
    md.answerAsEngine('matching.trades.history.v1', engineTrades);
  });

  /** What the engine answers (order-matching is not running in this test). */
  const engine: BookSnapshotsPage[] = [];
  const engineTrades: TradeHistoryPage[] = [];
  /** The price history as stored: trade id and YES price. */
  const prices = async () => {
    const db = new Client({ connectionString: md.databaseUrl });
    await db.connect();
    try {
      const rows = await db.query<{ trade_id: string; price: number }>('SELECT trade_id, price FROM price_history ORDER BY trade_id');
      return rows.rows.map((r) => `${r.trade_id}:${r.price}`);
    } finally {
      await db.end();
    }
  };
  const volumes = async () => {
    const db = new Client({ connectionString: md.databaseUrl });
    await db.connect();
    const rows = await db.query<{ condition_id: string; volume: string }>('SELECT condition_id, volume FROM market_volume').finally(() => db.end());
    return Object.fromEntries(rows.rows.map((r) => [r.condition_id, r.volume]));
  };
  const backfillPending = async () => {
    const db = new Client({ connectionString: md.databaseUrl });
    await db.connect();
    const rows = await db.query("SELECT 1 FROM stream_snapshots WHERE name = 'price-backfill'").finally(() => db.end());
    return rows.rowCount === 1;
  };
  const book = () => md.data('marketdata.book.v1', { token_id: yes });
  const levels = async () => {
    const b = await book();
    return { bids: b.bids.map((l) => `${l.price}:${l.size}`), asks: b.asks.map((l) => `${l.price}:${l.size}`) };
  };

  it("loads the engine's books, skips the older events the stream still holds, and applies the newer ones", async () => {
    await md.publishBook({ conditionId: cid, bookSeq: 1, changes: [{ side: 'BID', price: u('0.40'), size: u('10') }], timestamp: T });
    await md.publishBook({ conditionId: cid, bookSeq: 2, changes: [{ side: 'ASK', price: u('0.60'), size: u('5') }], timestamp: T + 1 });
    await md.publishTrade(aTrade({ id: 'trade-a', conditionId: cid, tokenId: yes!, price: u('0.60'), matchTime: T + 2 }));
    await until(async () => ((await book()).last_trade_price === '0.6' ? true : undefined));

    // The engine, meanwhile: book sequence 3 added a bid at 0.45 and 4 (committed, not published yet)
    // took it away again; a NO taker bought at 0.35 from a NO seller (YES last traded at 0.65, a SELL);
    // the other market was resolved for NO.
    engine.push(
      {
        markets: [
          {
            conditionId: cid,
            bookSeq: 4,
            timestamp: T + 4,
            levels: [
              { side: 'BID', price: u('0.40'), size: u('10') },
              { side: 'ASK', price: u('0.60'), size: u('5') },
            ],
            winningOutcome: -1,
            lastTrade: {
              id: 'trade-engine',
              conditionId: cid,
              tokenId: no!,
              side: 'BUY',
              size: u('10'),
              price: u('0.35'),
              collateral: u('3.5'),
              matchTime: T + 3,
              makers: [{ tokenId: no!, price: u('0.35') }],
            },
          },
        ],
        next: cid,
      },
      { markets: [{ conditionId: settled.conditionId, bookSeq: 0, timestamp: T + 4, levels: [], winningOutcome: 1, lastTrade: null }], next: null },
    );
    // Its trades: the one market-data recorded, the one it never saw, and one of the other market.
    const engineTrade = engine[0]!.markets[0]!.lastTrade!;
    engineTrades.push(
      { trades: [{ ...engineTrade, id: 'trade-a', tokenId: yes!, price: u('0.60'), collateral: u('6'), matchTime: T + 2, makers: [] }], next: 'trade-a' },
      {
        trades: [
          engineTrade,
          {
            id: 'trade-settled',
            conditionId: settled.conditionId,
            tokenId: settled.tokenIds[0]!,
            side: 'SELL',
            size: u('10'),
            price: u('0.3'),
            collateral: u('3'),
            matchTime: T + 3,
            makers: [],
          },
        ],
        next: null,
      },
    );
    await md.restart(async () => {
      // The snapshot saved at shutdown, at the last message applied (book, book, trade).
      const db = new Client({ connectionString: md.databaseUrl });
      await db.connect();
      const saved = await db.query<{ stream_seq: string }>("SELECT stream_seq FROM stream_snapshots WHERE name = 'matching'").finally(() => db.end());
      expect(saved.rows).toEqual([{ stream_seq: '3' }]);
      await md.publishBook({ conditionId: settled.conditionId, bookSeq: 1, changes: [{ side: 'BID', price: u('0.5'), size: u('1') }], timestamp: T + 3 });
      await md.publishBook({ conditionId: cid, bookSeq: 3, changes: [{ side: 'BID', price: u('0.45'), size: u('7') }], timestamp: T + 3 });
      // The stream's age limit removes everything before that event, some of which market-data never saw.
      await (await md.nc.jetstreamManager()).streams.purge(streamName(md.prefix, MATCHING_STREAM.name), { keep: 1 });
    });

    // The price history gets the trades the stream no longer has, in the background.
    await until(async () => ((await backfillPending()) ? undefined : true));
    expect(await prices()).toEqual(['trade-a:600000', 'trade-engine:650000', 'trade-settled:300000']);
    // trade-a came by the stream (10 at 0.60), the other two by the refill: each counted once.
    expect(await volumes()).toEqual({ [cid]: u('9.5'), [settled.conditionId]: u('3') });

    // Book sequence 3 is older than the engine's books: applying it would have put the bid at 0.45 back.
    expect(await levels()).toEqual({ bids: ['0.4:10'], asks: ['0.6:5'] });
    expect(await md.data('marketdata.last-trade-price.v1', { token_id: yes })).toEqual({ price: '0.65', side: 'SELL' });
    expect(await md.data('marketdata.last-trade-price.v1', { token_id: no })).toEqual({ price: '0.35', side: 'BUY' });
    const resolved = await md.data('marketdata.markets.get.v1', { condition_id: settled.conditionId });
    expect(resolved.tokens.map((t) => [t.winner, t.price])).toEqual([
      [false, 0],
      [true, 1],
    ]);

    // The engine's events go on: 4 is already in the books, 5 is new.
    await md.publishBook({ conditionId: cid, bookSeq: 4, changes: [{ side: 'BID', price: u('0.45'), size: '0' }], timestamp: T + 4 });
    await md.publishBook({ conditionId: cid, bookSeq: 5, changes: [{ side: 'ASK', price: u('0.65'), size: u('2') }], timestamp: T + 5 });
    await until(async () => ((await book()).asks.length === 2 ? true : undefined));
    expect(await levels()).toEqual({ bids: ['0.4:10'], asks: ['0.65:2', '0.6:5'] });

    // Its position is in the stream again: a restart takes the snapshot (the engine would not answer now),
    // and needs no refill.
    engine.length = 0;
    await md.restart();
    expect(await levels()).toEqual({ bids: ['0.4:10'], asks: ['0.65:2', '0.6:5'] });
    expect(await backfillPending()).toBe(false);
  });

  it('resumes an unfinished refill of the price history after a restart, from its last page', async () => {
    await md.restart(async () => {
      const db = new Client({ connectionString: md.databaseUrl });
      await db.connect();
      try {
        await db.query('DELETE FROM price_history');
        await db.query('DELETE FROM market_volume');
        // Stopped after the first page.
        await db.query(`INSERT INTO stream_snapshots (name, stream_seq, state, taken_at) VALUES ('price-backfill', 2, '{"after": "trade-a"}', now())`);
      } finally {
        await db.end();
      }
    });
    await until(async () => ((await backfillPending()) ? undefined : true));
    expect(await prices()).toEqual(['trade-engine:650000', 'trade-settled:300000']);
    expect(await volumes()).toEqual({ [cid]: u('3.5'), [settled.conditionId]: u('3') });
  });

  it('fills in the notional of rows written before volumes were kept, as the migration asks, counting each trade once', async () => {
    const legacy = async () => {
      const db = new Client({ connectionString: md.databaseUrl });
      await db.connect();
      try {
        await db.query('UPDATE price_history SET notional = NULL');
        await db.query('DELETE FROM market_volume');
        await db.query(`INSERT INTO stream_snapshots (name, stream_seq, state) VALUES ('price-backfill', 1, '{"after":null}')`);
      } finally {
        await db.end();
      }
    };
    await md.restart(legacy);
    await until(async () => ((await backfillPending()) ? undefined : true));
    // trade-a is back too (the engine's first page), counted as it is written.
    expect(await prices()).toEqual(['trade-a:600000', 'trade-engine:650000', 'trade-settled:300000']);
    expect(await volumes()).toEqual({ [cid]: u('9.5'), [settled.conditionId]: u('3') });
    // A refill of rows that have their notional counts nothing again.
    await md.restart(async () => {
      const db = new Client({ connectionString: md.databaseUrl });
      await db.connect();
      await db.query(`INSERT INTO stream_snapshots (name, stream_seq, state) VALUES ('price-backfill', 1, '{"after":null}')`).finally(() => db.end());
    });
    await until(async () => ((await backfillPending()) ? undefined : true));
    expect(await volumes()).toEqual({ [cid]: u('9.5'), [settled.conditionId]: u('3') });
    const page = await md.data('marketdata.activity.v1', {});
    expect(page.markets.map((m) => [m.conditionId, m.volume])).toEqual([
      [cid, u('9.5')],
      [settled.conditionId, u('3')],
    ]);
  });

  it('loads the engine’s books when the stream is behind its snapshot (a recreated stream), and applies the new stream from its start', async () => {
    engine.push({
      markets: [{ conditionId: cid, bookSeq: 9, timestamp: T + 9, levels: [{ side: 'BID', price: u('0.41'), size: u('3') }], winningOutcome: -1, lastTrade: null }],
      next: null,
    });
    await md.restart(async () => {
      await (await md.nc.jetstreamManager()).streams.delete(streamName(md.prefix, MATCHING_STREAM.name));
    });
    expect(await levels()).toEqual({ bids: ['0.41:3'], asks: [] });
    await md.publishBook({ conditionId: cid, bookSeq: 10, changes: [{ side: 'ASK', price: u('0.7'), size: u('1') }], timestamp: T + 10 });
    await until(async () => ((await book()).asks.length === 1 ? true : undefined));
    expect(await levels()).toEqual({ bids: ['0.41:3'], asks: ['0.7:1'] });
  });
});
