// GET /data/trades' query (order-matching's CALLER_TRADES) on a large synthetic history, per kind of
// account and filter: median ms of 5 runs after one to warm up. The history is made in SQL in a fresh
// migrated database (dropped at the end): --trades trades over 50 markets, one or two maker fills each,
// a market maker in a third of the fills, a heavy taker in a tenth of the trades, the rest spread over
// 1,000 takers and about 1,000 makers. Needs the built apps (pnpm build) and the local PostgreSQL.
//
//   node trades-list.mjs [--trades 1000000]
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const app = path.join(root, 'apps/order-matching');
const require = createRequire(path.join(app, 'package.json'));
const { Pool } = require('pg');
const { createTestDatabase, dropDatabase } = require(path.join(root, 'packages/service-kit/dist/index.js'));
const { CALLER_TRADES, MAKER_ROWS_PER_TRADES_PAGE } = require(path.join(app, 'dist/queries/caller-trades-sql.js'));

const flag = process.argv.indexOf('--trades');
const TRADES = flag === -1 ? 1_000_000 : Number(process.argv[flag + 1]);
const PAGE = 100;

const HISTORY = `
INSERT INTO markets (condition_id, token_ids, outcomes, tick_size, min_order_size, neg_risk, fee_rate_ppm, fee_exponent,
  fee_taker_only, rebate_rate_ppm, accepting_orders)
SELECT 'cond' || i, ARRAY['a', 'b'], ARRAY['Yes', 'No'], 10000, 5000000, false, 0, 1, true, 0, true FROM generate_series(0, 49) i;
INSERT INTO trades (id, batch_id, condition_id, taker_order_id, taker, taker_owner, token_id, outcome, side, shares, collateral,
  fee, fee_rate_bps, maker_fee_rate_bps, match_time)
SELECT md5(i::text), 'b' || (i / 20), 'cond' || (i % 50), md5('o' || i), CASE WHEN i % 10 = 0 THEN 'heavytaker' ELSE 'taker' || (i % 1000) END,
  'key', 'tok' || (i % 100), 0, 'BUY', 1000000, 500000, 0, 0, 0, 1700000000000 + i
FROM generate_series(1, ${TRADES}) i;
INSERT INTO trade_makers (trade_id, order_id, position, maker, owner, token_id, outcome, side, shares, price, fee, rebate, match_time, condition_id)
SELECT md5(i::text), md5('m' || i), 0, CASE WHEN i % 3 = 0 THEN 'marketmaker' ELSE 'maker' || (i % 997) END, 'key', 'tok' || (i % 100), 1,
  'BUY', 1000000, 500000, 0, 0, 1700000000000 + i, 'cond' || (i % 50)
FROM generate_series(1, ${TRADES}) i;
INSERT INTO trade_makers (trade_id, order_id, position, maker, owner, token_id, outcome, side, shares, price, fee, rebate, match_time, condition_id)
SELECT md5(i::text), md5('n' || i), 1, CASE WHEN i % 6 = 0 THEN 'marketmaker' ELSE 'maker' || (i % 991) END, 'key', 'tok' || (i % 100), 1,
  'BUY', 1000000, 500000, 0, 0, 1700000000000 + i, 'cond' || (i % 50)
FROM generate_series(1, ${TRADES}, 2) i;
ANALYZE;`;

// The parameters of CALLER_TRADES after the address: id, taker, maker, market, asset, before, after, page, offset, wallet,
// and the most maker_orders a page collects.
const middle = Math.floor((1_700_000_000_000 + TRADES / 2) / 1000);
const FILTERS = [
  ['first page', [null, null, null, null, null, null, null, PAGE, 0]],
  ['a market', [null, null, null, 'cond7', null, null, null, PAGE, 0]],
  ['after a time', [null, null, null, null, null, null, middle, PAGE, 0]],
  ['a token, before a time', [null, null, null, null, 'tok3', middle, null, PAGE, 0]],
  ['page 51 (offset 5,000)', [null, null, null, null, null, null, null, PAGE, 5_000]],
  ['a market never traded', [null, null, null, 'nowhere', null, null, null, PAGE, 0]],
];
const ACCOUNTS = [
  ['market maker (~415,000 fills)', 'marketmaker'],
  ['heavy taker (~100,000 trades)', 'heavytaker'],
  ['ordinary taker (~900 trades)', 'taker5'],
  ['ordinary maker (~1,500 fills)', 'maker5'],
];

async function median(pool, values) {
  await pool.query(CALLER_TRADES, values);
  const times = [];
  for (let i = 0; i < 5; i++) {
    const started = process.hrtime.bigint();
    await pool.query(CALLER_TRADES, values);
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times.sort((a, b) => a - b)[2];
}

const url = await createTestDatabase(app, 'bench_trades');
const pool = new Pool({ connectionString: url, max: 1, options: '-c jit=off' });
try {
  const started = Date.now();
  await pool.query(HISTORY);
  console.log(`history: ${TRADES.toLocaleString('en')} trades, ${Math.round(TRADES * 1.5).toLocaleString('en')} maker fills, made in ${((Date.now() - started) / 1000).toFixed(0)} s`);
  console.log(`median ms of 5 runs: ${FILTERS.map(([name]) => name).join(' | ')}`);
  for (const [name, address] of ACCOUNTS) {
    const figures = [];
    for (const [, filter] of FILTERS) figures.push((await median(pool, [address, ...filter, 'nobody', MAKER_ROWS_PER_TRADES_PAGE])).toFixed(1));
    console.log(`  ${name}: ${figures.join(' | ')}`);
  }
} finally {
  await pool.end();
  await dropDatabase(url);
}
