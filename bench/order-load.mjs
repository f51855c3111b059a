// End-to-end load test of signed POST /order through the gateway (HTTP -> NATS -> order-matching ->
// durable group commit), against a running exchange (./scripts/start.sh first).
//
//   node order-load.mjs [--base http://127.0.0.1:8080] [--rate 2000] [--seconds 10] [--connections 64]
//
// Two phases on fresh wallets and a fresh market:
//   1. fixed rate (open loop, undici): requests are sent on an even schedule of --rate per second whatever
//      the answers do, and each latency is measured from the request's scheduled time (no coordinated
//      omission). autocannon's `overallRate` sends each connection's share in bursts, which measured
//      the bursts rather than the exchange;
//   2. saturation (closed loop, autocannon): --connections requests always in flight for --seconds;
//      accepted/s. autocannon's client costs the shared cores a fraction of an undici loop's CPU.
// The generator's own CPU in each phase is printed: it shares the two cores with the exchange.
// Orders are pre-signed (EIP-712 V2 with native secp256k1) so that the generator spends its CPU on HTTP;
// every request carries fresh L2 HMAC headers. Orders alternate between two traders and rest or cross
// in about equal parts, so the engine matches, settles and journals real trades. An order is accepted
// when it is answered 200 (a refused one is 400 or 503).
import { randomBytes } from 'node:crypto';
import autocannon from 'autocannon';
import { Pool } from 'undici';
import { credentials, l2Headers, orderBody, wallet } from './trading-client.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
const BASE = args.base ?? 'http://127.0.0.1:8080';
const RATE = Number(args.rate ?? 2000);
const SECONDS = Number(args.seconds ?? 10);
const CONNECTIONS = Number(args.connections ?? 64);
const ADMIN = { authorization: `Bearer ${process.env.ADMIN_TOKEN ?? 'dev-admin-token-change-me'}`, 'content-type': 'application/json' };

const pool = new Pool(BASE, { connections: CONNECTIONS, pipelining: 1 });

async function call(method, path, headers, body) {
  const response = await pool.request({ method, path, headers, body });
  const text = await response.body.text();
  return { status: response.statusCode, body: text ? JSON.parse(text) : undefined };
}

async function setUp(count) {
  // A restarted exchange is in post-only mode for a while; the operator ends it for the benchmark.
  await call('POST', '/admin/post-only-mode', ADMIN, JSON.stringify({ enabled: false }));
  const slug = `load-${randomBytes(4).toString('hex')}`;
  const created = await call('POST', '/admin/events', ADMIN, JSON.stringify({
    title: 'Load test', slug, description: '', endDate: '2030-01-01T00:00:00Z',
    markets: [{ question: 'Load?', slug: `${slug}-m`, outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5', negRisk: false }],
  }));
  if (created.status !== 201) throw new Error(`create market: ${created.status} ${JSON.stringify(created.body)}`);
  const { conditionId, clobTokenIds } = created.body.markets[0];
  const yes = JSON.parse(clobTokenIds)[0];
  const traders = [wallet(), wallet()];
  const creds = await Promise.all(traders.map((t) => credentials(call, t)));
  for (const t of traders) await call('POST', '/admin/deposits', ADMIN, JSON.stringify({ address: t.address, amount: '100000000' }));
  // Wait until order-matching knows the market, then give the seller shares.
  for (;;) {
    const body = JSON.stringify({ conditionId, amount: '50000000' });
    const r = await call('POST', '/split', l2Headers(traders[0], creds[0], body, '/split'), body);
    if (r.status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  // Pre-sign: the seller asks 0.50-0.54, the buyer bids 0.46-0.52: about half of the bids cross.
  const orders = [];
  for (let i = 0; i < count; i++) {
    const seller = i % 2 === 0;
    const cents = seller ? 50 + (i % 5) : 46 + (i % 7);
    const trader = seller ? 0 : 1;
    const body = orderBody(traders[trader], creds[trader], yes, seller ? 'SELL' : 'BUY', 5_000_000, cents * 50_000);
    orders.push({ trader: traders[trader], creds: creds[trader], body });
  }
  return orders;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))];

async function fixedRate(orders) {
  const total = Math.min(orders.length, RATE * SECONDS);
  const latencies = [];
  let accepted = 0;
  let failed = 0;
  const start = performance.now();
  const inflight = [];
  for (let i = 0; i < total; i++) {
    const due = start + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    const { trader, creds, body } = orders[i];
    inflight.push(
      call('POST', '/order', l2Headers(trader, creds, body, '/order'), body).then(
        (r) => {
          latencies.push(performance.now() - due);
          if (r.status === 200 && r.body.success) accepted++;
          else failed++;
        },
        () => failed++,
      ),
    );
  }
  await Promise.all(inflight);
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  return { total, accepted, failed, elapsed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) };
}

/** autocannon on POST /order, each request the next pre-signed order with fresh L2 headers. */
function saturate(orders) {
  let next = 0;
  const setupRequest = (request) => {
    const { trader, creds, body } = orders[next++ % orders.length];
    return { ...request, headers: l2Headers(trader, creds, body, '/order'), body };
  };
  return new Promise((resolve, reject) => {
    autocannon(
      { url: BASE, connections: CONNECTIONS, duration: SECONDS, requests: [{ method: 'POST', path: '/order', setupRequest }] },
      (error, result) => (error ? reject(error) : resolve({ result, sent: next })),
    );
  });
}

/** The generator's own CPU while it ran a phase: it shares the cores with the exchange. */
async function measured(run) {
  const before = process.cpuUsage();
  const outcome = await run();
  const used = process.cpuUsage(before);
  return { ...outcome, generatorCpuSeconds: (used.user + used.system) / 1e6 };
}

const figures = ({ result, sent, generatorCpuSeconds }) => ({
  generatorCpuSeconds,
  sent,
  accepted: result['2xx'],
  failed: result.non2xx + result.errors + result.timeouts,
  perSecond: result['2xx'] / (result.duration || SECONDS),
  p50: result.latency.p50,
  p99: result.latency.p99,
});

// More orders than a phase can send: each order may be placed once only.
const fmt = (ms) => `${ms.toFixed(2)} ms`;
const fixedOrders = await setUp(RATE * SECONDS);
console.log(`fixed rate: ${RATE}/s for ${SECONDS} s (open loop, latency from the scheduled send time)`);
const fixed = await measured(() => fixedRate(fixedOrders));
console.log(`  sent ${fixed.total}, accepted ${fixed.accepted}, failed ${fixed.failed}, in ${fixed.elapsed.toFixed(2)} s`);
console.log(`  p50 ${fmt(fixed.p50)}  p99 ${fmt(fixed.p99)}  max ${fmt(fixed.max)}; generator CPU ${fixed.generatorCpuSeconds.toFixed(1)} s`);

const saturationOrders = await setUp(Math.max(20_000, 4_000 * SECONDS));
console.log(`saturation: ${CONNECTIONS} requests in flight for ${SECONDS} s`);
const sat = figures(await measured(() => saturate(saturationOrders)));
if (sat.sent > saturationOrders.length) console.log('  (more requests than pre-signed orders: the repeats were refused as duplicates)');
console.log(`  accepted ${sat.accepted} (${sat.perSecond.toFixed(0)} orders/s), failed ${sat.failed}`);
console.log(`  p50 ${sat.p50} ms  p99 ${sat.p99} ms; generator CPU ${sat.generatorCpuSeconds.toFixed(1)} s`);
await pool.close();
