// Read benchmark of market data through the whole stack (market-data renders the answers into Redis after
// each book change; the gateway answers from its Redis-invalidated local copy) next to a bare Fastify route that returns a constant body, in the same run, on the same
// machine, with the same load generator; against a running exchange (./scripts/start.sh first).
//
//   node read-load.mjs [--base http://127.0.0.1:8080] [--seconds 10] [--connections 64] [--rate 5000] [--rounds 3]
//
// Set-up: a fresh market whose book holds 10 bid and 10 ask levels (signed orders of two fresh wallets).
// Then, for the bare route (a child process serving the /book JSON of that market as a constant), GET
// /book and GET /price (side=BUY):
//   1. saturation (closed loop): --connections requests always in flight for --seconds: requests/s and
//      latency percentiles;
//   2. fixed rate (open loop, open-loop.mjs): --rate requests/s on an even schedule over up to
//      --connections connections for --seconds: latency percentiles at that load, measured from each
//      request's scheduled time.
// The targets take turns for --rounds rounds (after a 2 s warm-up each), so that a slow moment of the
// shared machine does not fall on one of them only; the medians and the ratio of the stack's median
// requests/s to the bare route's are printed for each route.
// It reads from one address, far past GET /book's rate limit of 200 per 10 s: it runs against limits
// that are off (`RATE_LIMITS=off ./scripts/start.sh`) or a thousand times larger
// (`RATE_LIMIT_SCALE=1000`, which measures the read path with the limiter's cost) and refuses otherwise.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import autocannon from 'autocannon';
import { openLoop } from './open-loop.mjs';
import { httpRequest } from './raw-http.mjs';
import { ADMIN, credentials, freshMarket, httpCaller, l2Headers, orderBody, splitOnceKnown, wallet } from './trading-client.mjs';

const require = createRequire(import.meta.url);

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
const BASE = args.base ?? 'http://127.0.0.1:8080';
const SECONDS = Number(args.seconds ?? 10);
const CONNECTIONS = Number(args.connections ?? 64);
const RATE = Number(args.rate ?? 5000);
const ROUNDS = Number(args.rounds ?? 3);
const call = httpCaller(BASE);

/** A signed L2 request of a trader. */
function signed(trader, creds, path, body) {
  return call('POST', path, l2Headers(trader, creds, body, path), body);
}

/** A fresh market with 10 bid levels (0.35-0.44) and 10 ask levels (0.56-0.65). */
async function setUp() {
  const { conditionId, yes } = await freshMarket(call, 'read');
  const [seller, buyer] = [wallet(), wallet()];
  const [sellerCreds, buyerCreds] = await Promise.all([credentials(call, seller), credentials(call, buyer)]);
  for (const t of [seller, buyer]) await call('POST', '/admin/deposits', ADMIN, JSON.stringify({ address: t.address, amount: '100000' }));
  await splitOnceKnown(call, seller, sellerCreds, conditionId, '10000');
  for (let i = 0; i < 10; i++) {
    const ask = await signed(seller, sellerCreds, '/order', orderBody(seller, sellerCreds, yes, 'SELL', 10_000_000 * (i + 1), (56 + i) * 100_000 * (i + 1)));
    const bid = await signed(buyer, buyerCreds, '/order', orderBody(buyer, buyerCreds, yes, 'BUY', 10_000_000 * (i + 1), (44 - i) * 100_000 * (i + 1)));
    if (!ask.body?.success || !bid.body?.success) throw new Error(`order refused: ${ask.text} ${bid.text}`);
  }
  for (;;) {
    const book = await call('GET', `/book?token_id=${yes}`);
    if (book.status === 200 && book.body.bids.length === 10 && book.body.asks.length === 10) return { yes, bookJson: book.text };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The bare route: a Fastify process answering GET /book with the constant body. */
async function startBare(body) {
  const source = `
    const fastify = require('fastify')({ logger: false });
    const body = ${JSON.stringify(body)};
    fastify.get('/book', (request, reply) => { reply.header('content-type', 'application/json; charset=utf-8').send(body); });
    fastify.listen({ port: 0, host: '127.0.0.1' }).then((address) => process.stdout.write(address + '\\n'));`;
  const child = spawn(process.execPath, ['-e', source], { cwd: import.meta.dirname ?? process.cwd(), stdio: ['ignore', 'pipe', 'inherit'] });
  const address = await new Promise((resolve) => child.stdout.once('data', (d) => resolve(String(d).trim())));
  return { address, stop: () => child.kill('SIGTERM') };
}

function run(url, options) {
  return new Promise((resolve, reject) => {
    autocannon({ url, duration: SECONDS, connections: CONNECTIONS, ...options }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

const figures = (r) => ({
  rps: Math.round(r.requests.average),
  p50: r.latency.p50,
  p99: r.latency.p99,
  errors: r.errors + r.timeouts + (r.non2xx ?? 0),
});

/** The fixed-rate run of a GET: latency from each request's scheduled time. */
async function fixedRate(url) {
  const { origin, pathname, search } = new URL(url);
  const request = httpRequest(origin, 'GET', pathname + search);
  const r = await openLoop({ url: origin, rate: RATE, seconds: SECONDS, connections: CONNECTIONS, nextRequest: () => request });
  const ok = r.statuses[200] ?? 0;
  return { rps: Math.round(ok / r.elapsed), p50: round(r.p50), p99: round(r.p99), errors: r.sent - ok };
}

const round = (ms) => Math.round(ms * 10) / 10;

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function main() {
  console.log(`base ${BASE}, ${SECONDS}s per run, ${CONNECTIONS} connections, fixed rate ${RATE}/s, ${ROUNDS} rounds`);
  // GET /time counts in the CLOB routes' bucket: 5,000 per 10 s at scale 1.
  const limit = (await fetch(`${BASE}/time`)).headers.get('x-ratelimit-limit');
  if (limit !== null && Number(limit) < 5_000_000) {
    console.error('the exchange applies rate limits: start it with RATE_LIMITS=off or RATE_LIMIT_SCALE=1000 for this benchmark');
    process.exit(1);
  }
  console.log(limit === null ? 'rate limits off' : 'rate limits on, 1,000 times larger');
  const { yes, bookJson } = await setUp();
  console.log(`book of ${yes}: ${bookJson.length} bytes`);
  const bare = await startBare(bookJson);
  const targets = [
    ['bare Fastify (constant /book body)', `${bare.address}/book`],
    ['GET /book via gateway', `${BASE}/book?token_id=${yes}`],
    ['GET /price via gateway', `${BASE}/price?token_id=${yes}&side=BUY`],
  ];
  const rounds = targets.map(() => []);
  try {
    for (const [, url] of targets) await run(url, { duration: 2 }); // warm-up
    // Rounds alternate the targets, so that a slow moment of the shared machine hits all of them alike.
    for (let round = 1; round <= ROUNDS; round++) {
      for (const [i, [name, url]] of targets.entries()) {
        const saturated = figures(await run(url, {}));
        const fixed = await fixedRate(url);
        rounds[i].push({ saturated, fixed });
        console.log(
          `round ${round} ${name.padEnd(36)} saturated ${String(saturated.rps).padStart(6)} req/s p50 ${saturated.p50} ms p99 ${saturated.p99} ms` +
            ` | at ${RATE}/s: ${fixed.rps} req/s p50 ${fixed.p50} ms p99 ${fixed.p99} ms | errors ${saturated.errors + fixed.errors}`,
        );
      }
    }
  } finally {
    bare.stop();
  }
  console.log(`\nmedians of ${ROUNDS} rounds (ratio: to the bare route's median saturated req/s):`);
  const bareRps = median(rounds[0].map((r) => r.saturated.rps));
  for (const [i, [name]] of targets.entries()) {
    const rps = median(rounds[i].map((r) => r.saturated.rps));
    const p99 = median(rounds[i].map((r) => r.saturated.p99));
    const fixedP50 = median(rounds[i].map((r) => r.fixed.p50));
    const fixedP99 = median(rounds[i].map((r) => r.fixed.p99));
    console.log(
      `  ${name.padEnd(36)} ${String(rps).padStart(6)} req/s p99 ${p99} ms | at ${RATE}/s p50 ${fixedP50} ms p99 ${fixedP99} ms | ratio ${(rps / bareRps).toFixed(2)}`,
    );
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
