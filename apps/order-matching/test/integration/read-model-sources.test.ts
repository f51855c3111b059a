import { connect } from 'nats';
import { MATCHING_STREAM, type MatchingEventBatch, type TradeEvent } from '@exchange/contracts';
import { streamName } from '@exchange/service-kit';
import { eventually, readStream, TEST_NATS_URL } from '@exchange/testing';
import { anOrder, traderOf } from '../support/engine-fixture';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

const TRADED = `0x${'a1'.repeat(32)}`;
const QUIET = `0x${'b2'.repeat(32)}`;
const alice = traderOf(1);
const bob = traderOf(2);

describe('what a market-data replica rebuilds from, over NATS: books and trades', () => {
  let om: MatchingUnderTest;

  beforeAll(async () => {
    om = await startMatching({ MATCHING_STREAM_MAX_AGE_HOURS: '48' });
    await om.publishMarket(aMarketSnapshot(TRADED, ['11', '12']));
    await om.publishMarket(aMarketSnapshot(QUIET, ['21', '22']));
  });
  afterAll(() => om.stop());

  const place = (caller: typeof alice, order: ReturnType<typeof anOrder>) => om.place(caller, order);

  it('sets the age limit of the MATCHING stream it owns', async () => {
    const nc = await connect({ servers: TEST_NATS_URL });
    const info = await (await nc.jetstreamManager()).streams.info(streamName(om.prefix, MATCHING_STREAM.name));
    await nc.close();
    expect(info.config.max_age).toBe(48 * 3_600 * 1e9);
  });

  it('answers the committed books with their book sequences and each market’s last trade, as the stream told them', async () => {
    await om.data('matching.admin.deposit.v1', { address: alice.address, amount: '100' });
    await om.data('matching.admin.deposit.v1', { address: bob.address, amount: '100' });
    await om.data('matching.split.v1', { caller: alice, conditionId: TRADED, amount: '50' });
    for (const price of ['0.60', '0.61']) await place(alice, anOrder(alice, { token: '11', side: 'SELL', price, size: '10' }));
    await place(bob, anOrder(bob, { token: '11', side: 'BUY', price: '0.40', size: '10' }));
    // Bob buys 15 YES: 10 at 0.60, then 5 at 0.61 (the last fill, whose price is the trade's).
    expect(await place(bob, anOrder(bob, { token: '11', side: 'BUY', price: '0.61', size: '15' }))).toMatchObject({ success: true, status: 'matched' });
    // Then he sells 5 YES against alice's ask for NO at 0.45 (a YES bid at 0.55): a merge, whose maker
    // trades the other token.
    await place(alice, anOrder(alice, { token: '12', side: 'SELL', price: '0.45', size: '5' }));
    expect(await place(bob, anOrder(bob, { token: '11', side: 'SELL', price: '0.55', size: '5' }))).toMatchObject({ success: true, status: 'matched' });

    const page = await om.data('matching.books.snapshots.v1', {});
    expect(page.next).toBeNull();
    expect(page.markets.map((m) => m.conditionId)).toEqual([TRADED, QUIET]);
    const [traded, quiet] = page.markets;

    // The same book the events built: the newest size of every level, at the newest book sequence.
    const batches = (await readStream(om.prefix, MATCHING_STREAM.name)).map((m) => (m.data as MatchingEventBatch).events).flat();
    const sizes = new Map<string, string>();
    let bookSeq = 0;
    let bookTime = 0;
    let lastTrade: TradeEvent | undefined;
    for (const event of batches) {
      if (event.type === 'book' && event.data.conditionId === TRADED) {
        for (const change of event.data.changes) sizes.set(`${change.side}:${change.price}`, change.size);
        bookSeq = event.data.bookSeq;
        bookTime = event.data.timestamp;
      }
      if (event.type === 'trade') lastTrade = event.data;
    }
    const fromEvents = [...sizes].filter(([, size]) => size !== '0').map(([key, size]) => `${key}:${size}`).sort();
    expect(traded!.levels.map((l) => `${l.side}:${l.price}:${l.size}`).sort()).toEqual(fromEvents);
    expect(fromEvents).toEqual(['ASK:610000:5000000', 'BID:400000:10000000']);
    expect(traded!.bookSeq).toBe(bookSeq);
    // The time of the book's last change, so that a replica reloading it keeps its timestamp and hash.
    expect(traded!.timestamp).toBe(bookTime);
    expect(traded!.winningOutcome).toBe(-1);
    expect(traded!.lastTrade).toEqual({
      id: lastTrade!.id,
      conditionId: TRADED,
      tokenId: lastTrade!.tokenId,
      side: lastTrade!.side,
      size: lastTrade!.size,
      price: lastTrade!.price,
      collateral: lastTrade!.collateral,
      matchTime: lastTrade!.matchTime,
      makers: [{ tokenId: '12', price: '450000' }],
    });
    // A SELL of 5 YES at 0.55 (a MERGE with a NO buyer at 0.45): the taker received 2.75.
    expect(lastTrade).toMatchObject({ tokenId: '11', side: 'SELL', size: '5000000', collateral: '2750000', makers: [{ tokenId: '12', price: '450000' }] });
    expect(quiet).toMatchObject({ conditionId: QUIET, bookSeq: 0, timestamp: 0, levels: [], lastTrade: null });
    // After a restart, which reloads the books from the database (and restates those with levels: one
    // more book event each), the time and sequence of each book's last event still; the quiet market's
    // book, emptied again before the restart, keeps the time of its last change from the database.
    await place(bob, anOrder(bob, { token: '21', side: 'BUY', price: '0.30', size: '10' }));
    await om.data('matching.orders.cancel-all.v1', { caller: bob });
    await om.restart();
    const reloaded = await om.data('matching.books.snapshots.v1', {});
    const lastEvents = new Map<string, { bookSeq: number; timestamp: number }>();
    // The restatement's events reach the stream after the restart's first commit: read until they are there.
    await eventually(async () => {
      for (const message of await readStream(om.prefix, MATCHING_STREAM.name)) {
        for (const event of (message.data as MatchingEventBatch).events) {
          if (event.type === 'book') lastEvents.set(event.data.conditionId, { bookSeq: event.data.bookSeq, timestamp: event.data.timestamp });
        }
      }
      return lastEvents.get(TRADED)?.bookSeq === reloaded.markets[0]!.bookSeq;
    }, 'the restated book in the stream');
    expect(reloaded.markets.map((m) => ({ bookSeq: m.bookSeq, timestamp: m.timestamp }))).toEqual(
      [TRADED, QUIET].map((id) => lastEvents.get(id) ?? { bookSeq: 0, timestamp: 0 }),
    );
    expect(reloaded.markets[0]!.bookSeq).toBeGreaterThan(bookSeq);
    expect(reloaded.markets[1]).toMatchObject({ bookSeq: 2, levels: [] });
    expect(reloaded.markets[1]!.timestamp).toBeGreaterThan(0);

    expect(await om.data('matching.books.snapshots.v1', { after: TRADED })).toMatchObject({ markets: [{ conditionId: QUIET }], next: null });

    // The trade history: every trade once, in id order, with the facts its events carried.
    const trades = batches.flatMap((e) => (e.type === 'trade' ? [e.data] : []));
    const history = await om.data('matching.trades.history.v1', {});
    expect(history.next).toBeNull();
    expect(history.trades).toEqual(
      trades
        .map((t) => ({
          id: t.id,
          conditionId: t.conditionId,
          tokenId: t.tokenId,
          side: t.side,
          size: t.size,
          price: t.price,
          collateral: t.collateral,
          matchTime: t.matchTime,
          makers: t.makers.slice(-1).map((m) => ({ tokenId: m.tokenId, price: m.price })),
        }))
        .sort((a, b) => (a.id < b.id ? -1 : 1)),
    );
    expect(history.trades).toHaveLength(2);
    expect(await om.data('matching.trades.history.v1', { after: history.trades[0]!.id })).toEqual({ trades: [history.trades[1]], next: null });
    expect(await om.request('matching.trades.history.v1', { after: 'x'.repeat(101) })).toMatchObject({ ok: false, status: 400, body: { code: 'invalid_request' } });
    expect(await om.request('matching.books.snapshots.v1', { after: 5 })).toMatchObject({ ok: false, status: 400, body: { code: 'invalid_request' } });
  });
});
