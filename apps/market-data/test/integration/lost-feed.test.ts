import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { CATALOG_STREAM, MATCHING_STREAM, type BookSnapshotsPage } from '@exchange/contracts';
import { ensureStream, streamName } from '@exchange/service-kit';
import { until } from '@exchange/testing';
import { aMarketSnapshot, startMarketData, u, type MarketDataUnderTest } from '../support/market-data-harness';

const T = 1_700_000_000_000;

describe('market-data whose consumer or stream is deleted while it runs (real PostgreSQL, Redis, NATS and JetStream)', () => {
  let md: MarketDataUnderTest;
  const market = aMarketSnapshot();
  const [yes] = market.tokenIds;
  const cid = market.conditionId;
  const engine: BookSnapshotsPage[] = [];

  beforeAll(async () => {
    md = await startMarketData();
    md.answerAsEngine('matching.books.snapshots.v1', engine);
    await md.publishMarket(market);
    await md.untilMarketKnown(cid);
  });
  afterAll(() => md?.stop());

  const warn = jest.spyOn(Logger.prototype, 'warn');
  /** Start-ups that loaded the books from order-matching. */
  const loads = () => warn.mock.calls.filter(([m]) => String(m).includes('are no longer in the stream'));
  const jsm = () => md.nc.jetstreamManager();
  const bids = async () => (await md.data('marketdata.book.v1', { token_id: yes })).bids.map((l) => l.price).join();
  const bid = (bookSeq: number, price: string) => md.publishBook({ conditionId: cid, bookSeq, changes: [{ side: 'BID', price: u(price), size: u('1') }], timestamp: T + bookSeq });

  it('does not exit when it is shut down', async () => {
    await bid(1, '0.1');
    await until(async () => ((await bids()) === '0.1' ? true : undefined));
    await md.restart();
    expect(md.exits()).toBe(0);
  });

  it('exits when its MATCHING consumer is deleted, and starts again with a new one', async () => {
    await (await jsm()).consumers.delete(streamName(md.prefix, MATCHING_STREAM.name), 'market-data-matching');
    await until(async () => (md.exits() === 1 ? true : undefined), 10_000, 'an exit');
    // What the supervisor does.
    await md.restart();
    await bid(2, '0.2');
    await until(async () => ((await bids()) === '0.1,0.2' ? true : undefined));
  });

  it('exits when the MATCHING stream is deleted, and starts again from the books of order-matching', async () => {
    engine.push({
      markets: [{ conditionId: cid, bookSeq: 3, timestamp: T + 3, levels: [{ side: 'BID', price: u('0.3'), size: u('1') }], winningOutcome: -1, lastTrade: null }],
      next: null,
    });
    await (await jsm()).streams.delete(streamName(md.prefix, MATCHING_STREAM.name));
    await until(async () => (md.exits() === 2 ? true : undefined), 10_000, 'an exit');
    await md.restart();
    expect(await bids()).toBe('0.3');
    await bid(4, '0.4');
    await until(async () => ((await bids()) === '0.3,0.4' ? true : undefined));
    // Its snapshot is in the new stream now: the next start takes it, without asking order-matching.
    engine.length = 0;
    await md.restart();
    expect(await bids()).toBe('0.3,0.4');
    expect(loads()).toHaveLength(1);
  });

  it('exits when its catalog consumer is deleted, and starts again with a new one', async () => {
    await (await jsm()).consumers.delete(streamName(md.prefix, CATALOG_STREAM.name), 'market-data-catalog');
    await until(async () => (md.exits() === 3 ? true : undefined), 10_000, 'an exit');
    await md.restart();
    const other = aMarketSnapshot();
    await md.publishMarket(other);
    await md.untilMarketKnown(other.conditionId);
    expect(md.exits()).toBe(3);
  });

  it('starts from the books of order-matching when its snapshot is older than a recreated stream that grew past it, and saves them at once', async () => {
    engine.push({
      markets: [{ conditionId: cid, bookSeq: 100, timestamp: T + 100, levels: [{ side: 'BID', price: u('0.5'), size: u('1') }], winningOutcome: -1, lastTrade: null }],
      next: null,
    });
    const before = loads().length;
    await md.restart(async () => {
      await (await jsm()).streams.delete(streamName(md.prefix, MATCHING_STREAM.name));
      await ensureStream(md.nc, md.prefix, MATCHING_STREAM);
      // The new stream's events (older than the engine's books) pass the snapshot's position.
      for (let seq = 10; seq < 30; seq++) await bid(seq, '0.6');
    });
    expect(await bids()).toBe('0.5');
    expect(loads()).toHaveLength(before + 1);
    // A restart before the next periodic save starts from the engine's books, not from empty ones.
    engine.length = 0;
    await md.restart();
    expect(await bids()).toBe('0.5');
    expect(loads()).toHaveLength(before + 1);
  });

  it('reads the catalog stream from its beginning with a database that holds no market (new)', async () => {
    await md.restart(async () => {
      const db = new Client({ connectionString: md.databaseUrl });
      await db.connect();
      try {
        await db.query('DELETE FROM markets');
      } finally {
        await db.end();
      }
    });
    expect((await md.request('marketdata.markets.get.v1', { condition_id: cid })).ok).toBe(true);
  });
});
