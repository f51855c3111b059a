import { Pool } from 'pg';
import { traderOf } from '../support/engine-fixture';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

const MARKET = { conditionId: `0x${'4'.repeat(64)}`, tokens: ['401', '402'] as [string, string] };
const taker = traderOf(1);
const maker = traderOf(2).address;

/** A page of `/data/trades` ends after the trade that brings its maker_orders to 1,000 (never inside a trade). */
describe("the caller's trades, paged by their makers too", () => {
  let om: MatchingUnderTest;
  // Newest first: trade 0 has 600 makers, 1 has 500, 2 has 300, 3 has 1,200, 4 has 1.
  const makers = [600, 500, 300, 1_200, 1];
  const ids = makers.map((_, i) => `00000000-0000-7000-8000-${String(i).padStart(12, '0')}`);

  beforeAll(async () => {
    om = await startMatching();
    await om.publishMarket(aMarketSnapshot(MARKET.conditionId, MARKET.tokens));
    const pool = new Pool({ connectionString: om.databaseUrl });
    try {
      const times = makers.map((_, i) => 1_790_000_000_000 - i * 1_000);
      await pool.query(
        `INSERT INTO trades (id, batch_id, condition_id, taker_order_id, taker, taker_owner, token_id, outcome, side, shares, collateral, fee, fee_rate_bps, maker_fee_rate_bps, match_time)
         SELECT u.id, 'batch', $2, $3, $4, 'key', $5, 0, 'BUY', 1000000, 500000, 0, 0, 0, u.match_time FROM unnest($1::text[], $6::bigint[]) AS u(id, match_time)`,
        [ids, MARKET.conditionId, `0x${'f'.repeat(64)}`, taker.address, MARKET.tokens[0], times],
      );
      const fills = makers.flatMap((count, t) => Array.from({ length: count }, (_, position) => ({ t, position })));
      await pool.query(
        `INSERT INTO trade_makers (trade_id, order_id, position, maker, owner, token_id, outcome, side, shares, price, fee, rebate, match_time, condition_id)
         SELECT u.trade_id, u.order_id, u.position, $4, 'key', $5, 0, 'SELL', 1000, 500000, 0, 0, u.match_time, $6
         FROM unnest($1::text[], $2::text[], $3::int[], $7::bigint[]) AS u(trade_id, order_id, position, match_time)`,
        [
          fills.map((f) => ids[f.t]),
          fills.map((f) => `0x${String(f.t).padStart(4, '0')}${String(f.position).padStart(60, '0')}`),
          fills.map((f) => f.position),
          maker,
          MARKET.tokens[0],
          MARKET.conditionId,
          fills.map((f) => times[f.t]),
        ],
      );
    } finally {
      await pool.end();
    }
  });
  afterAll(() => om.stop());

  it('cuts a page after the trade that reaches 1,000 makers, goes on from there, and holds a larger trade whole', async () => {
    const pages: { ids: string[]; makers: number[]; next: string; count: number }[] = [];
    let cursor = 'MA==';
    while (cursor !== 'LTE=') {
      const page = await om.data('matching.trades.list.v1', { caller: taker, next_cursor: cursor });
      pages.push({ ids: page.data.map((t) => t.id), makers: page.data.map((t) => t.maker_orders.length), next: page.next_cursor, count: page.count });
      cursor = page.next_cursor;
    }
    expect(pages).toEqual([
      { ids: [ids[0], ids[1]], makers: [600, 500], next: Buffer.from('2').toString('base64'), count: 2 },
      { ids: [ids[2], ids[3]], makers: [300, 1_200], next: Buffer.from('4').toString('base64'), count: 2 },
      { ids: [ids[4]], makers: [1], next: 'LTE=', count: 1 },
    ]);
  });
});
