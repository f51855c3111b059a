/**
 * The caller's trades, newest first (`GET /data/trades`). Parameters: $1 and $11 the accounts walked
 * (the caller's address and its deposit wallet or null, or the one `maker_address` names and null); the
 * filters $2 id, $3 taker, $4 maker, $5 market, $6 asset, $7 before and $8 after (unix seconds, strictly, a
 * trade counted by its whole second as clients see it: `after=T` leaves out the trades of second T); $9 the
 * page size, $10 its offset and $12 the most `maker_orders` a page collects.
 *
 * Each account's taker trades and maker fills are walked newest first by an index ((taker, match_time,
 * id) backwards and (maker, match_time DESC, trade_id DESC)) and each walk stops after page + offset
 * trades: every trade of the page is among the first page + offset of one of the walks, so their union
 * holds the page. The accounts are two parameters rather than an array so that the planner sees each
 * address and its statistics (through `unnest` it planned an average account, and read a market maker's
 * 400,000 fills with a bitmap scan and a sort). Filters on the maker side read the trade only when one
 * is given.
 * Before, the whole set of the caller's trades was joined and sorted on every request: 2 s for a market
 * maker with 400,000 fills, 0.8 s for a taker of 100,000 trades (docs/performance.md, fifteenth session).
 */
const takerTrades = (account: string) => `
    (SELECT t.id FROM trades t
      WHERE t.taker = ${account}
        AND ($2::text IS NULL OR t.id = $2)
        AND ($3::text IS NULL OR t.taker = $3)
        AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM trade_makers y WHERE y.trade_id = t.id AND y.maker = $4))
        AND ($5::text IS NULL OR t.condition_id = $5)
        AND ($6::text IS NULL OR t.token_id = $6)
        AND ($7::bigint IS NULL OR t.match_time < $7 * 1000)
        AND ($8::bigint IS NULL OR t.match_time >= ($8 + 1) * 1000)
      ORDER BY t.match_time DESC, t.id DESC LIMIT $9::int + $10::int)`;

// A maker may have several orders in one trade: one row per trade (DISTINCT ON follows the index's order).
// A token filter matches the maker's own order: in a trade that mints or merges, the taker's is the other.
const makerTrades = (account: string) => `
    (SELECT DISTINCT ON (tm.match_time, tm.trade_id) tm.trade_id FROM trade_makers tm
      WHERE tm.maker = ${account}
        AND ($5::text IS NULL OR tm.condition_id = $5)
        AND ($6::text IS NULL OR tm.token_id = $6)
        AND ($7::bigint IS NULL OR tm.match_time < $7 * 1000)
        AND ($8::bigint IS NULL OR tm.match_time >= ($8 + 1) * 1000)
        AND (($2::text IS NULL AND $3::text IS NULL AND $4::text IS NULL) OR EXISTS (
          SELECT 1 FROM trades t WHERE t.id = tm.trade_id
            AND ($2::text IS NULL OR t.id = $2)
            AND ($3::text IS NULL OR t.taker = $3)
            AND ($4::text IS NULL OR EXISTS (SELECT 1 FROM trade_makers y WHERE y.trade_id = t.id AND y.maker = $4))))
      ORDER BY tm.match_time DESC, tm.trade_id DESC LIMIT $9::int + $10::int)`;

/**
 * The page ($9 trades from offset $10) ends early, after the trade that brings its `maker_orders` to $12 or
 * more (a trade is never split): a trade may carry a thousand makers, and the page is built and parsed in
 * the engine's process. `fetched` is how many trades the page had before that cut, so that the caller can
 * tell a cut page from the last one.
 */
export const CALLER_TRADES = `
WITH picked AS (
  SELECT DISTINCT id FROM (${takerTrades('$1')} UNION ALL ${makerTrades('$1')} UNION ALL ${takerTrades('$11')} UNION ALL ${makerTrades('$11')}) x
), page AS (
  SELECT t.id, t.match_time, (SELECT count(*) FROM trade_makers tm WHERE tm.trade_id = t.id) AS maker_rows
  FROM picked JOIN trades t USING (id)
  ORDER BY t.match_time DESC, t.id DESC LIMIT $9 OFFSET $10
), counted AS (
  SELECT id, count(*) OVER () AS fetched,
    coalesce(sum(maker_rows) OVER (ORDER BY match_time DESC, id DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS rows_before
  FROM page
)
SELECT t.*, m.outcomes, counted.fetched::int AS fetched,
  (SELECT json_agg(json_build_object('order_id', tm.order_id, 'maker', tm.maker, 'owner', tm.owner, 'token_id', tm.token_id,
     'outcome', tm.outcome, 'side', tm.side, 'shares', tm.shares::text, 'price', tm.price) ORDER BY tm.position)
   FROM trade_makers tm WHERE tm.trade_id = t.id) AS makers
FROM counted JOIN trades t USING (id) JOIN markets m USING (condition_id)
WHERE counted.rows_before < $12
ORDER BY t.match_time DESC, t.id DESC`;

/**
 * Decision: a page of trades collects at most about this many `maker_orders`: it ends after the trade that
 * reaches it (docs/trading.md, "Queries"). A page of 100 trades of a thousand makers each would be 37 MB,
 * built and parsed in the engine's own process (a scale probe read a 7.4 MB trade in 3-5 s, holding every
 * market meanwhile).
 */
export const MAKER_ROWS_PER_TRADES_PAGE = 1_000;
