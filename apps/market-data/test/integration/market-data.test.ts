import { hotMetadataKeys, MATCHING_STREAM, type ClobMarket } from '@exchange/contracts';
import { Client } from 'pg';
import { streamName } from '@exchange/service-kit';
import { readStream, until } from '@exchange/testing';
import { aMarketSnapshot, aTrade, startMarketData, u, type MarketDataUnderTest } from '../support/market-data-harness';
import { EMPTIED_CHECK_MS } from '../../src/redis/redis-refill.service';

describe('market-data (real PostgreSQL, Redis, NATS and JetStream)', () => {
  let md: MarketDataUnderTest;
  const market = aMarketSnapshot({ negRisk: true, negRiskMarketId: `0x${'ab'.repeat(32)}`, sites: ['site-a'] });
  const [yes, no] = market.tokenIds;
  const cid = market.conditionId;

  beforeAll(async () => {
    md = await startMarketData();
    await md.publishMarket(market);
    await md.untilMarketKnown(cid);
  });
  afterAll(() => md?.stop());

  it('serves the CLOB form of a market the catalog published, with every field of SPEC.md', async () => {
    const clob: ClobMarket = await md.data('marketdata.markets.get.v1', { condition_id: cid.toUpperCase().replace('0X', '0x') });
    expect(clob).toMatchObject({
      condition_id: cid,
      question: market.question,
      market_slug: market.slug,
      slug: market.slug,
      minimum_order_size: 5,
      minimum_tick_size: 0.01,
      maker_base_fee: 0,
      taker_base_fee: 400,
      neg_risk: true,
      accepting_orders: true,
      status: 'active',
      market_id: market.id,
      creator: 'site-a',
      rewards: { rates: [], min_size: 0, max_spread: 0 },
      assets_ids: [yes, no],
      outcomes: ['Yes', 'No'],
      event: { id: String(market.eventId), slug: market.eventSlug, title: market.eventTitle, ticker: market.eventTicker, description: 'An event.' },
      tokens: [
        { token_id: yes, outcome: 'Yes', price: 0.5, winner: false, mirror_token_id: '' },
        { token_id: no, outcome: 'No', price: 0.5, winner: false, mirror_token_id: '' },
      ],
    });
    expect(Object.keys(clob)).toHaveLength(38);
  });

  it('keeps hot metadata in Redis per token and per condition id', async () => {
    const token = await md.redis.hgetall(hotMetadataKeys.token(md.prefix, no!));
    expect(token).toMatchObject({ condition_id: cid, outcome_index: '1', tick_size: '0.01', min_order_size: '5', neg_risk: 'true', accepting_orders: 'true' });
    expect(JSON.parse(token.fee_rate!)).toMatchObject({ base_fee: 400, fd: { r: 0.04, e: 1, to: true } });
    expect(await md.redis.hget(hotMetadataKeys.market(md.prefix, cid), 'token_ids')).toBe(`${yes},${no}`);
    expect(JSON.parse((await md.redis.hget(hotMetadataKeys.defaults(md.prefix), 'fee_rate'))!)).toMatchObject({ base_fee: 0 });
  });

  it('answers per-token lookups and refuses unknown tokens and bad input', async () => {
    expect(await md.data('marketdata.markets-by-token.v1', { token_id: no })).toEqual({ condition_id: cid, primary_token_id: yes, secondary_token_id: no });
    expect(await md.data('marketdata.tick-size.v1', { token_id: yes })).toEqual({ minimum_tick_size: 0.01 });
    expect(await md.data('marketdata.neg-risk.v1', { token_id: yes })).toEqual({ neg_risk: true });
    expect(await md.data('marketdata.fee-rate.v1', { token_id: yes })).toEqual({
      base_fee: 400,
      fd: { r: 0.04, e: 1, to: true },
      fee_schedule: { rate: 0.04, exponent: 1, takerOnly: true, rebateRate: 0.25, category: 'politics', version: 1, source: 'local' },
    });
    expect((await md.data('marketdata.fee-rate.v1', {})).base_fee).toBe(0);
    expect(await md.request('marketdata.book.v1', { token_id: '12345' })).toMatchObject({
      ok: false,
      status: 404,
      body: { error: 'No orderbook exists for the requested token id', code: 'orderbook_not_found' },
    });
    expect(await md.request('marketdata.book.v1', { token_id: 'abc' })).toMatchObject({ ok: false, status: 400, body: { error: 'Invalid token id' } });
    expect(await md.request('marketdata.tick-size.v1', { token_id: '1' })).toMatchObject({ ok: false, status: 404 });
  });

  it('keeps the L2 book from book events, mirrored for the NO token', async () => {
    await md.publishBook({ conditionId: cid, bookSeq: 1, changes: [{ side: 'BID', price: u('0.4'), size: u('10') }], timestamp: 1_700_000_000_000 });
    await md.publishBook({
      conditionId: cid,
      bookSeq: 2,
      changes: [
        { side: 'ASK', price: u('0.6'), size: u('5') },
        { side: 'ASK', price: u('0.65'), size: u('7.5') },
        { side: 'BID', price: u('0.38'), size: u('2') },
      ],
      timestamp: 1_700_000_000_500,
    });
    const book = await until(async () => {
      const b = await md.data('marketdata.book.v1', { token_id: yes });
      return b.asks.length === 2 ? b : undefined;
    });
    expect(book).toMatchObject({
      market: cid,
      asset_id: yes,
      timestamp: '1700000000500',
      bids: [
        { price: '0.38', size: '2' },
        { price: '0.4', size: '10' },
      ],
      asks: [
        { price: '0.65', size: '7.5' },
        { price: '0.6', size: '5' },
      ],
      min_order_size: '5',
      tick_size: '0.01',
      neg_risk: true,
      last_trade_price: '0.5',
    });
    expect(book.hash).toMatch(/^[0-9a-f]{40}$/);
    const noBook = await md.data('marketdata.book.v1', { token_id: no });
    expect(noBook.bids).toEqual([
      { price: '0.35', size: '7.5' },
      { price: '0.4', size: '5' },
    ]);
    expect(noBook.asks).toEqual([
      { price: '0.62', size: '2' },
      { price: '0.6', size: '10' },
    ]);
    expect(await md.data('marketdata.price.v1', { token_id: yes, side: 'BUY' })).toEqual({ price: '0.4' });
    expect(await md.data('marketdata.price.v1', { token_id: no, side: 'sell' })).toEqual({ price: '0.6' });
    expect(await md.data('marketdata.prices.v1', [{ token_id: yes }, { token_id: no, side: 'BUY' }])).toEqual({
      [yes!]: { BUY: '0.4', SELL: '0.6' },
      [no!]: { BUY: '0.4', SELL: '0.6' },
    });
    expect(await md.data('marketdata.midpoint.v1', { token_id: no })).toEqual({ mid: '0.5' });
    expect(await md.data('marketdata.spreads.v1', [{ token_id: yes }, { token_id: no }])).toEqual({ [yes!]: '0.2', [no!]: '0.2' });
    const books = await md.data('marketdata.books.v1', [{ token_id: yes }, { token_id: no }]);
    expect(books.map((b) => b.hash)).toEqual([book.hash, noBook.hash]);
    const repeated = await md.data('marketdata.books.v1', [{ token_id: no }, { token_id: yes }, { token_id: no }, { token_id: yes }]);
    expect(repeated.map((b) => b.asset_id)).toEqual([no, yes]);
    // The same answers, pre-rendered in Redis for the gateway.
    const quote = await until(async () => {
      const q = await md.redis.hgetall(hotMetadataKeys.quote(md.prefix, no!));
      return q.book && JSON.parse(q.book).hash === noBook.hash ? q : undefined;
    });
    expect(JSON.parse(quote.book!)).toEqual(noBook);
    expect([quote.BUY, quote.SELL, quote.mid].map((v) => JSON.parse(v!))).toEqual([{ price: '0.4' }, { price: '0.6' }, { mid: '0.5' }]);
  });

  it('applies events seen twice or out of order to the same book, and notes gaps', async () => {
    const before = await md.data('marketdata.book.v1', { token_id: yes });
    await md.publishBook({ conditionId: cid, bookSeq: 4, changes: [{ side: 'BID', price: u('0.4'), size: u('3') }], timestamp: 1_700_000_001_000 });
    const afterGap = await until(async () => {
      const b = await md.data('marketdata.book.v1', { token_id: yes });
      return b.hash !== before.hash ? b : undefined;
    });
    expect(afterGap.bids[1]).toEqual({ price: '0.4', size: '3' });
    // The missing event arrives late: it set the same level to an older size, which must not win.
    await md.publishBook({
      conditionId: cid,
      bookSeq: 3,
      changes: [
        { side: 'BID', price: u('0.4'), size: u('8') },
        { side: 'BID', price: u('0.38'), size: '0' },
      ],
      timestamp: 1_700_000_000_800,
    });
    await md.publishBook({ conditionId: cid, bookSeq: 2, changes: [{ side: 'ASK', price: u('0.6'), size: u('99') }], timestamp: 1 });
    const healed = await until(async () => {
      const b = await md.data('marketdata.book.v1', { token_id: yes });
      return b.bids.length === 1 ? b : undefined;
    });
    expect(healed.bids).toEqual([{ price: '0.4', size: '3' }]);
    expect(healed.asks[1]).toEqual({ price: '0.6', size: '5' });
  });

  it('records trades: last trade prices mirrored per token and the price history', async () => {
    const now = Date.now();
    // A NO taker buys at 0.45 from a YES buyer's bid (a mint): YES last traded at 0.55, taker side SELL.
    await md.publishTrade(
      aTrade({
        conditionId: cid,
        tokenId: no!,
        side: 'BUY',
        price: u('0.45'),
        matchTime: now - 120_000,
        makers: [{ orderId: 'm1', maker: '0x2', tokenId: yes!, side: 'BUY', size: u('10'), price: u('0.55'), fee: '0', rebate: '0' }],
      }),
    );
    await md.publishTrade(
      aTrade({
        conditionId: cid,
        tokenId: yes!,
        side: 'BUY',
        price: u('0.6'),
        matchTime: now,
        makers: [{ orderId: 'm2', maker: '0x2', tokenId: yes!, side: 'SELL', size: u('10'), price: u('0.6'), fee: '0', rebate: '0' }],
      }),
    );
    const last = await until(async () => {
      const l = await md.data('marketdata.last-trade-price.v1', { token_id: yes });
      return l.price === '0.6' ? l : undefined;
    });
    expect(last).toEqual({ price: '0.6', side: 'BUY' });
    expect(await md.data('marketdata.last-trades-prices.v1', [{ token_id: no }])).toEqual([{ token_id: no, price: '0.4', side: 'SELL' }]);
    expect((await md.data('marketdata.last-trades-prices.v1', [{ token_id: no }, { token_id: yes }, { token_id: no }])).map((p) => p.token_id)).toEqual([no, yes]);
    expect((await md.data('marketdata.book.v1', { token_id: no })).last_trade_price).toBe('0.4');

    const end = Math.floor(now / 1000);
    const history = await until(async () => {
      const h = await md.data('marketdata.prices-history.v1', { market: yes, startTs: String(end - 600), endTs: String(end), fidelity: '1' });
      return h.history.length > 0 && h.history[h.history.length - 1]!.p === 0.6 ? h.history : undefined;
    });
    expect(history[0]).toEqual({ t: expect.any(Number), p: 0.55 });
    expect(history.every((point, i) => i === 0 || point.t > history[i - 1]!.t)).toBe(true);
    // An end in the future: the points stop at now (they went on, dated in the future, carrying the last price).
    const ahead = await md.data('marketdata.prices-history.v1', { market: yes, startTs: String(end - 600), endTs: String(end + 7_200), fidelity: '1' });
    expect(ahead.history.at(-1)!.t).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(ahead.history.at(-1)!.p).toBe(0.6);
    const batch = await md.data('marketdata.batch-prices-history.v1', { markets: [no], interval: 'max', fidelity: 1 });
    expect(batch.history[no!]![0]!.p).toBe(0.45);
    expect(batch.history[no!]!.at(-1)!.p).toBe(0.4);
    expect(await md.request('marketdata.prices-history.v1', { market: yes, endTs: '1' })).toMatchObject({ ok: false, status: 400 });
    expect(await md.request('marketdata.prices-history.v1', { market: yes, startTs: '1700000000000' })).toMatchObject({ ok: false, status: 400 });
  });

  it('orders refilled trades of one millisecond by trade id in the history (they have no stream position)', async () => {
    // As the backfill writes them (stream_seq 0), the later trade first; ids are UUIDs v7 that count up within a millisecond.
    const at = 1_600_000_000_000;
    const db = new Client({ connectionString: md.databaseUrl });
    await db.connect();
    try {
      for (const [id, price] of [['019a0000-0000-7000-8000-000000000002', 450_000], ['019a0000-0000-7000-8000-000000000001', 400_000]] as const) {
        await db.query('INSERT INTO price_history (trade_id, condition_id, time_ms, price, stream_seq) VALUES ($1, $2, $3, $4, 0)', [id, cid, at, price]);
      }
    } finally {
      await db.end();
    }
    const seconds = at / 1000;
    for (const range of [{ startTs: String(seconds - 60), endTs: String(seconds) }, { startTs: String(seconds + 60), endTs: String(seconds + 120) }]) {
      const h = await md.data('marketdata.prices-history.v1', { market: yes, ...range, fidelity: '1' });
      expect(h.history.at(-1)!.p).toBe(0.45);
    }
  });

  it('applies the events of one batch message in order, skipping a malformed one and a malformed message', async () => {
    const matchTime = Date.now();
    const trade = (price: string) => ({ type: 'trade' as const, data: aTrade({ conditionId: cid, tokenId: yes!, price: u(price), matchTime }) });
    await md.nc.jetstream().publish(`${md.prefix}.matching.evt.batch.v1`, new TextEncoder().encode('{"events":7}'));
    await md.publishBatch([trade('0.58')]);
    await md.publishBatch([trade('0.62'), { type: 'book', data: 'not a book' as never }, trade('0.64')]);
    // The trades share a millisecond: the last event of the stream is the last trade, in memory and in the history.
    const last = await until(async () => {
      const l = await md.data('marketdata.last-trade-price.v1', { token_id: yes });
      return l.price === '0.64' ? l : undefined;
    });
    expect(last).toEqual({ price: '0.64', side: 'BUY' });
    const end = Math.ceil(matchTime / 1000) + 1;
    // The history is written by the next flush, up to FLUSH_INTERVAL_MS after the books: wait for the last trade's row.
    const history = await until(async () => {
      const h = await md.data('marketdata.prices-history.v1', { market: yes, startTs: String(end - 60), endTs: String(end), fidelity: '1' });
      return h.history.at(-1)?.p === 0.64 ? h.history : undefined;
    });
    expect(history.at(-1)).toEqual({ t: expect.any(Number), p: 0.64 });
  });

  it('publishes tick size changes, ignores replays of older snapshots, and updates Redis', async () => {
    await md.publishMarket({ ...market, tickSizeUnits: 1_000, updatedAt: '2026-02-01T00:00:00.000Z' });
    await md.publishMarket({ ...market, tickSizeUnits: 100_000, updatedAt: '2025-12-01T00:00:00.000Z' });
    await until(async () => ((await md.data('marketdata.tick-size.v1', { token_id: yes })).minimum_tick_size === 0.001 ? true : undefined));
    const events = await until(async () => {
      const found = (await readStream(md.prefix, 'MARKETDATA')).filter((m) => m.subject === 'marketdata.evt.tick-size-changed.v1');
      return found.length ? found : undefined;
    });
    expect(events.map((e) => e.data)).toEqual([
      { conditionId: cid, tokenIds: [yes, no], oldTickSize: '0.01', newTickSize: '0.001', timestamp: Date.parse('2026-02-01T00:00:00.000Z') },
    ]);
    expect(await md.redis.hget(hotMetadataKeys.token(md.prefix, yes!), 'tick_size')).toBe('0.001');
  });

  it('rebuilds the same books after a restart (snapshot plus the rest of the stream)', async () => {
    const before = await md.data('marketdata.book.v1', { token_id: no });
    await md.restart();
    const after = await md.data('marketdata.book.v1', { token_id: no });
    expect(after).toEqual(before);
    await md.publishBook({ conditionId: cid, bookSeq: 5, changes: [{ side: 'ASK', price: u('0.7'), size: u('1') }], timestamp: 1_700_000_002_000 });
    await until(async () => ((await md.data('marketdata.book.v1', { token_id: no })).bids.length === 3 ? true : undefined));
  });

  it('pages the market list with base64 offset cursors and lists sampling markets once rewarded', async () => {
    const others = [aMarketSnapshot(), aMarketSnapshot()];
    for (const m of others) await md.publishMarket(m);
    await until(async () => ((await md.data('marketdata.markets.list.v1', {})).count === 3 ? true : undefined));
    const first = await md.data('marketdata.markets.list.v1', { next_cursor: 'MA==', limit: '2' });
    expect(first).toMatchObject({ limit: 2, count: 2, next_cursor: 'Mg==' });
    const second = await md.data('marketdata.markets.list.v1', { next_cursor: first.next_cursor, limit: '2' });
    expect(second).toMatchObject({ count: 1, next_cursor: 'LTE=' });
    expect([...first.data, ...second.data].map((m) => m.condition_id)).toEqual([cid, ...others.map((m) => m.conditionId)]);
    expect(await md.request('marketdata.markets.list.v1', { next_cursor: 'LTE=' })).toMatchObject({ ok: false, status: 400 });
    expect(await md.request('marketdata.markets.list.v1', { next_cursor: '%%%' })).toMatchObject({ ok: false, status: 400 });

    expect((await md.data('marketdata.sampling-markets.list.v1', {})).data).toEqual([]);
    const rewards = { rates: [{ asset_address: '0x0000000000000000000000000000000000000c01', rewards_daily_rate: 25 }], min_size: 50, max_spread: 3.5 };
    await md.data('marketdata.admin.rewards.set.v1', { condition_id: others[1]!.conditionId, body: rewards });
    // One rate per asset: two would pay its makers twice over (any case of the address).
    const twice = { ...rewards, rates: [...rewards.rates, { asset_address: '0x0000000000000000000000000000000000000C01', rewards_daily_rate: 5 }] };
    expect(await md.request('marketdata.admin.rewards.set.v1', { condition_id: others[1]!.conditionId, body: twice })).toMatchObject({
      ok: false,
      status: 400,
      body: { error: expect.stringContaining('rates must name each asset_address once') },
    });
    const sampling = await md.data('marketdata.sampling-markets.list.v1', {});
    expect(sampling).toMatchObject({ count: 1, next_cursor: 'LTE=', limit: 500 });
    expect(sampling.data[0]).toMatchObject({ condition_id: others[1]!.conditionId, rewards });
    expect(Object.keys(sampling.data[0]!)).toHaveLength(31);
    // Upstream's simplified lists: every market or the sampling ones, cut to seven fields.
    const simplified = await md.data('marketdata.simplified-markets.list.v1', {});
    expect(simplified).toMatchObject({ count: 3, next_cursor: 'LTE=', limit: 500 });
    expect(simplified.data.map((m) => m.condition_id)).toEqual([cid, ...others.map((m) => m.conditionId)]);
    const simplifiedSampling = await md.data('marketdata.sampling-simplified-markets.list.v1', { next_cursor: 'MA==' });
    expect(simplifiedSampling.data).toEqual([
      {
        condition_id: others[1]!.conditionId,
        rewards,
        tokens: sampling.data[0]!.tokens,
        active: true,
        closed: false,
        archived: false,
        accepting_orders: true,
      },
    ]);
    expect(await md.request('marketdata.simplified-markets.list.v1', { next_cursor: 'LTE=' })).toMatchObject({ ok: false, status: 400 });
    expect((await md.data('marketdata.clob-market.get.v1', { condition_id: others[1]!.conditionId })).r).toEqual(rewards);
  });

  it('shows a resolution: winner flags, prices 1 and 0, no longer accepting orders', async () => {
    await md.publishResolution({ conditionId: cid, winningOutcome: 1, resolvedAt: Date.now() });
    const resolved = await until(async () => {
      const m = await md.data('marketdata.markets.get.v1', { condition_id: cid });
      return m.status === 'resolved' ? m : undefined;
    });
    expect(resolved).toMatchObject({ accepting_orders: false, closed: true });
    expect(resolved.tokens.map((t) => [t.winner, t.price])).toEqual([
      [false, 0],
      [true, 1],
    ]);
    await until(async () => ((await md.redis.hget(hotMetadataKeys.token(md.prefix, yes!), 'accepting_orders')) === 'false' ? true : undefined));
  });

  it('writes its hashes to Redis again when its connection comes back, as after a restart of a Redis that kept nothing', async () => {
    const keys = [hotMetadataKeys.token(md.prefix, yes!), hotMetadataKeys.market(md.prefix, cid), hotMetadataKeys.defaults(md.prefix), hotMetadataKeys.quote(md.prefix, yes!)];
    const before = await Promise.all(keys.map((key) => md.redis.hgetall(key)));
    expect(before.every((hash) => Object.keys(hash).length > 0)).toBe(true);
    // What the restart leaves: the keys gone and the connection dropped.
    await md.redis.del(...keys);
    const line = String(await md.redis.client('LIST'))
      .split('\n')
      .find((entry) => entry.includes(`name=market-data:${md.prefix} `));
    await md.redis.client('KILL', 'ID', /id=(\d+)/.exec(line ?? '')![1]!);
    // Before, they came back only as each market changed (found by a chaos probe).
    const after = await until(async () => {
      const hashes = await Promise.all(keys.map((key) => md.redis.hgetall(key)));
      return hashes.every((hash) => Object.keys(hash).length > 0) ? hashes : undefined;
    });
    expect(after).toEqual(before);
  });

  it('writes its hashes to Redis again when they vanish while its connection stays, as after a FLUSHALL', async () => {
    const keys = [hotMetadataKeys.token(md.prefix, yes!), hotMetadataKeys.market(md.prefix, cid), hotMetadataKeys.defaults(md.prefix), hotMetadataKeys.quote(md.prefix, yes!)];
    const before = await Promise.all(keys.map((key) => md.redis.hgetall(key)));
    expect(before.every((hash) => Object.keys(hash).length > 0)).toBe(true);
    // The run's own keys only: the machine's Redis is shared by other test runs.
    await md.redis.del(...keys);
    // Until the thirtieth session they stayed gone until the connection dropped (a probe).
    const after = await until(
      async () => {
        const hashes = await Promise.all(keys.map((key) => md.redis.hgetall(key)));
        return hashes.every((hash) => Object.keys(hash).length > 0) ? hashes : undefined;
      },
      EMPTIED_CHECK_MS * 3,
      'the hashes written again',
    );
    expect(after).toEqual(before);
  });

  it('keeps up with a burst of batches: every trade in the history, the last quote in Redis, every message acknowledged', async () => {
    const burst = aMarketSnapshot();
    await md.publishMarket(burst);
    await md.untilMarketKnown(burst.conditionId);
    const count = 300;
    const matchTime = Date.now();
    // Flushes are paced while messages keep coming: the burst must still end fully written and acknowledged.
    for (let i = 1; i <= count; i++) {
      await md.publishBatch([
        { type: 'book', data: { conditionId: burst.conditionId, bookSeq: i, changes: [{ side: 'BID', price: u('0.01'), size: u(String(i)) }], timestamp: matchTime + i } },
        { type: 'trade', data: aTrade({ conditionId: burst.conditionId, tokenId: burst.tokenIds[0]!, price: u('0.5'), matchTime: matchTime + i }) },
      ]);
    }
    // 300 batches behind the paced flushes: more than the default wait on a loaded machine.
    const quote = await until(async () => {
      const q = await md.redis.hget(hotMetadataKeys.quote(md.prefix, burst.tokenIds[0]!), 'book');
      return q && JSON.parse(q).bids.at(-1)?.size === String(count) ? JSON.parse(q) : undefined;
    }, 60_000, 'the last quote of the burst in Redis');
    expect(quote.bids).toEqual([{ price: '0.01', size: String(count) }]);
    const history = await md.data('marketdata.batch-prices-history.v1', { markets: [burst.tokenIds[0]!], interval: 'max', fidelity: 1 });
    expect(history.history[burst.tokenIds[0]!]!.length).toBeGreaterThan(0);
    const stream = streamName(md.prefix, MATCHING_STREAM.name);
    const consumer = await until(async () => {
      const info = await (await md.nc.jetstreamManager()).consumers.info(stream, 'market-data-matching');
      return info.num_ack_pending === 0 && info.ack_floor.stream_seq === info.delivered.stream_seq ? info : undefined;
    }, 60_000, 'every message of the burst acknowledged');
    const last = (await (await md.nc.jetstreamManager()).streams.info(stream)).state.last_seq;
    expect(consumer.ack_floor.stream_seq).toBe(last);
    const db = new Client({ connectionString: md.databaseUrl });
    await db.connect();
    try {
      const rows = await db.query('SELECT count(*)::int AS n FROM price_history WHERE condition_id = lower($1)', [burst.conditionId]);
      expect(rows.rows[0].n).toBe(count);
    } finally {
      await db.end();
    }
  }, 180_000);

  it('records a trade of more than 500 makers, sent as slices with one id, at its last fill\'s price', async () => {
    const big = aMarketSnapshot();
    await md.publishMarket(big);
    await md.untilMarketKnown(big.conditionId);
    const [bigYes] = big.tokenIds;
    const slice = (id: string, price: string, matchTime: number) =>
      aTrade({
        id,
        conditionId: big.conditionId,
        tokenId: bigYes!,
        price: u('0.6'),
        matchTime,
        makers: [{ orderId: `m-${price}`, maker: '0x2', tokenId: bigYes!, side: 'SELL', size: u('5'), price: u(price), fee: '0', rebate: '0' }],
      });
    const now = Date.now();
    // Both slices in one message (one flush), and a trade whose slices come in two messages.
    await md.publishBatch([
      { type: 'trade', data: slice('big-1', '0.5', now - 60_000) },
      { type: 'trade', data: slice('big-1', '0.6', now - 60_000) },
    ]);
    await md.publishTrade(slice('big-2', '0.55', now));
    await md.publishTrade(slice('big-2', '0.7', now));
    const db = new Client({ connectionString: md.databaseUrl });
    await db.connect();
    const prices = async () =>
      (await db.query<{ trade_id: string; price: number }>('SELECT trade_id, price FROM price_history WHERE condition_id = $1 ORDER BY trade_id', [big.conditionId])).rows;
    const recorded = async (count: number, last: number) => {
      const rows = await prices();
      return rows.length === count && rows.at(-1)!.price === last ? rows : undefined;
    };
    try {
      expect(await until(() => recorded(2, 700_000))).toEqual([
        { trade_id: 'big-1', price: 600_000 },
        { trade_id: 'big-2', price: 700_000 },
      ]);
      const history = await md.data('marketdata.prices-history.v1', { market: bigYes, startTs: String(Math.floor(now / 1000) - 120), fidelity: '1' });
      expect(history.history.map((point) => point.p)).toContain(0.6);
    } finally {
      await db.end();
    }
  });
});
