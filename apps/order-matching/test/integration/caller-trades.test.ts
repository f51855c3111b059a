import { Pool } from 'pg';
import type { ListTradesRequest } from '@exchange/contracts';
import { traderOf } from '../support/engine-fixture';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

interface Fill {
  maker: string;
  orderId: string;
  /** The maker order's token: the taker's, or the other one in a trade that mints or merges. */
  tokenId: string;
}
interface TradeRow {
  id: string;
  conditionId: string;
  tokenId: string;
  taker: string;
  matchTime: number;
  makers: Fill[];
}

const MARKETS = [0, 1, 2].map((n) => ({ conditionId: `0x${String(n + 1).repeat(64)}`, tokens: [`${n}01`, `${n}02`] as [string, string] }));
const owner = traderOf(1);
const wallet = traderOf(9).address;
const others = [traderOf(2).address, traderOf(3).address];
const addresses = [owner.address, wallet, ...others];

/** A deterministic generator, so that a failure can be replayed. */
function random(seed: number) {
  let state = seed;
  return (n: number) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    // The high bits: the low bits of this generator repeat with a short period.
    return Math.floor((state / 2 ** 31) * n);
  };
}

/**
 * Trades of four accounts, with every overlap the list must handle: the caller as taker and maker of
 * one trade, two fills of one maker in a trade, its wallet on either side, many trades of one
 * millisecond. Stored as the journal stores them.
 */
function someTrades(count: number): TradeRow[] {
  const pick = random(7);
  // A quarter past each second: a filter in whole seconds must not read a trade of second T as after T.
  let time = 1_790_000_000_250;
  return Array.from({ length: count }, (_, i) => {
    time += pick(4) === 0 ? 1_000 : 0;
    const market = MARKETS[pick(3)]!;
    // One in five trades has two or three fills of the caller's address.
    const sameMaker = pick(5) === 0;
    const taken = pick(2);
    const makers = Array.from({ length: 1 + pick(3) + (sameMaker ? 1 : 0) }, (_, f) => ({
      maker: sameMaker ? owner.address : addresses[pick(4)]!,
      orderId: `0x${String(i).padStart(60, '0')}${String(f).padStart(4, '0')}`,
      tokenId: market.tokens[pick(3) === 0 ? 1 - taken : taken]!,
    }));
    // UUIDs, as the engine's, in no particular order.
    return { id: `${String(pick(100_000_000)).padStart(8, '0')}-0000-7000-8000-${String(i).padStart(12, '0')}`, conditionId: market.conditionId, tokenId: market.tokens[taken]!, taker: addresses[pick(4)]!, matchTime: time, makers };
  });
}

/** Stores the trades and their fills in two statements, a row per array element (a statement per row took most of a minute). */
async function store(pool: Pool, trades: TradeRow[]): Promise<void> {
  await pool.query(
    `INSERT INTO trades (id, batch_id, condition_id, taker_order_id, taker, taker_owner, token_id, outcome, side, shares, collateral, fee, fee_rate_bps, maker_fee_rate_bps, match_time)
     SELECT u.id, 'batch', u.condition_id, $5, u.taker, 'key', u.token_id, 0, 'BUY', 1000000, 500000, 0, 0, 0, u.match_time
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $6::bigint[]) AS u(id, condition_id, taker, token_id, match_time)`,
    [trades.map((t) => t.id), trades.map((t) => t.conditionId), trades.map((t) => t.taker), trades.map((t) => t.tokenId), `0x${'f'.repeat(64)}`, trades.map((t) => t.matchTime)],
  );
  const fills = trades.flatMap((t) => t.makers.map((fill, position) => ({ ...fill, position, trade: t })));
  await pool.query(
    `INSERT INTO trade_makers (trade_id, order_id, position, maker, owner, token_id, outcome, side, shares, price, fee, rebate, match_time, condition_id)
     SELECT u.trade_id, u.order_id, u.position, u.maker, 'key', u.token_id, 1, 'BUY', 1000000, 500000, 0, 0, u.match_time, u.condition_id
     FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::bigint[], $7::text[])
       AS u(trade_id, order_id, position, maker, token_id, match_time, condition_id)`,
    [
      fills.map((f) => f.trade.id),
      fills.map((f) => f.orderId),
      fills.map((f) => f.position),
      fills.map((f) => f.maker),
      fills.map((f) => f.tokenId),
      fills.map((f) => f.trade.matchTime),
      fills.map((f) => f.trade.conditionId),
    ],
  );
  const [counts] = (await pool.query<{ trades: number; fills: number }>('SELECT (SELECT count(*) FROM trades)::int AS trades, (SELECT count(*) FROM trade_makers)::int AS fills')).rows;
  expect(counts).toEqual({ trades: trades.length, fills: fills.length });
}

/** What `/data/trades` must answer for the owner (its address and its wallet), every page in one list. */
function expected(trades: TradeRow[], filter: Partial<ListTradesRequest>): string[] {
  // `maker_address` names one of the caller's accounts, whose trades alone are listed.
  const all = [owner.address, wallet];
  const mine = new Set(filter.maker_address === undefined ? all : all.filter((a) => a === filter.maker_address));
  return trades
    .filter((t) => mine.has(t.taker) || t.makers.some((m) => mine.has(m.maker)))
    .filter((t) => filter.id === undefined || t.id === filter.id)
    .filter((t) => filter.taker === undefined || t.taker === filter.taker)
    .filter((t) => filter.maker === undefined || t.makers.some((m) => m.maker === filter.maker))
    .filter((t) => filter.market === undefined || t.conditionId === filter.market)
    // A token: the caller's trades in it, as taker of that token or by a maker order of it.
    .filter((t) => filter.asset_id === undefined || (mine.has(t.taker) && t.tokenId === filter.asset_id) || t.makers.some((m) => mine.has(m.maker) && m.tokenId === filter.asset_id))
    .filter((t) => filter.before === undefined || t.matchTime < filter.before * 1000)
    .filter((t) => filter.after === undefined || Math.floor(t.matchTime / 1000) > filter.after)
    .sort((a, b) => b.matchTime - a.matchTime || (a.id < b.id ? 1 : -1))
    .map((t) => t.id);
}

/** The list by deposit-wallet owner and by filters, read page after page, against a model of the rows. */
describe("the caller's trades, newest first, on real PostgreSQL", () => {
  let om: MatchingUnderTest;
  const trades = someTrades(1_500);

  beforeAll(async () => {
    om = await startMatching();
    for (const market of MARKETS) await om.publishMarket(aMarketSnapshot(market.conditionId, market.tokens));
    await om.data('matching.admin.wallet.bind.v1', { wallet, owner: owner.address });
    const pool = new Pool({ connectionString: om.databaseUrl });
    try {
      await store(pool, trades);
    } finally {
      await pool.end();
    }
  });
  afterAll(() => om.stop());

  const listed = async (filter: Partial<ListTradesRequest>): Promise<string[]> => {
    const ids: string[] = [];
    let cursor = 'MA==';
    while (cursor !== 'LTE=') {
      const page = await om.data('matching.trades.list.v1', { caller: { ...owner, apiKey: 'another-key' }, ...filter, next_cursor: cursor });
      ids.push(...page.data.map((t) => t.id));
      cursor = page.next_cursor;
    }
    return ids;
  };

  const middle = trades[700]!;
  it.each<[string, Partial<ListTradesRequest>]>([
    ['no filter', {}],
    ['a market', { market: MARKETS[1]!.conditionId }],
    ['a token', { asset_id: MARKETS[2]!.tokens[0] }],
    ['a token, from one account', { asset_id: MARKETS[0]!.tokens[1], maker_address: wallet }],
    ['the wallet as taker', { taker: wallet }],
    ['another maker', { maker: others[0] }],
    ["the owner's own address as maker_address", { maker_address: owner.address }],
    ["the wallet's address as maker_address", { maker_address: wallet }],
    ['after a time', { after: Math.floor(middle.matchTime / 1000) }],
    ['before a time, in a market', { before: Math.floor(middle.matchTime / 1000), market: MARKETS[0]!.conditionId }],
    ['one id', { id: middle.id }],
  ])('lists every trade of %s once, in order, across pages', async (_name, filter) => {
    const want = expected(trades, filter);
    if (filter.id === undefined) expect(want.length).toBeGreaterThan(filter.market || filter.asset_id || filter.taker || filter.maker || filter.maker_address ? 100 : 500);
    expect(await listed(filter)).toEqual(want);
  });

  it('counts a trade by its whole second: after its second leaves it out, as before it does', async () => {
    const second = Math.floor(middle.matchTime / 1000);
    expect(middle.matchTime % 1000).toBeGreaterThan(0);
    expect(await listed({ after: second })).not.toContain(middle.id);
    expect(await listed({ before: second })).not.toContain(middle.id);
    expect(await listed({ after: second - 1, before: second + 1 })).toContain(middle.id);
  });

  it('lists nothing for a maker_address that is none of the caller\'s accounts', async () => {
    expect(expected(trades, { maker: others[0] }).length).toBeGreaterThan(100);
    expect(await listed({ maker_address: others[0] })).toEqual([]);
  });

  it('refuses what is not a cursor of the list, the end cursor included, as the market lists do', async () => {
    // `MA===` was read as the first page by a decoder of the engine's own (a probe); now the shared one.
    // The market lists' texts too (this list said "next_cursor is not a cursor of this list" until the twenty-second session).
    const texts = {
      'MA===': 'next_cursor must be a cursor returned by a previous page (base64 offset)',
      'LTE=': 'next_cursor LTE= marks the end of the list: there are no more pages',
      'bm90LWFuLW9mZnNldA==': 'next_cursor must be a cursor returned by a previous page (base64 offset)',
    };
    for (const [next_cursor, text] of Object.entries(texts)) {
      const reply = await om.request('matching.trades.list.v1', { caller: owner, next_cursor });
      expect(reply).toMatchObject({ ok: false, status: 400 });
      expect(JSON.stringify(reply)).toContain(text);
      expect(await om.request('matching.orders.list.v1', { caller: owner, next_cursor })).toMatchObject({ ok: false, status: 400 });
    }
  });
});
