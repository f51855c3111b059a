// End-to-end load test of signed POST /order through the gateway (HTTP -> NATS -> order-matching ->
// durable group commit), against a running exchange (./scripts/start.sh first).
//
//   node order-load.mjs [--base http://127.0.0.1:8080] [--rate 2000] [--seconds 10] [--connections 64]
//                       [--phases fixed,saturation] [--warmup 2] [--timeline yes] [--traders 20]
//                       [--answers <prefix>]
//
// Two phases, each on fresh wallets and a fresh market, which it resolves at the end:
//   1. fixed rate (open-loop.mjs): requests are sent on an even schedule of --rate per second whatever
//      the answers do, and each latency is measured from the request's scheduled time (no coordinated
//      omission);
//   2. saturation (closed-loop.mjs): --connections requests always in flight for --seconds; accepted/s.
// Each phase first runs --warmup seconds the same way, left out of its figures (the count is printed):
// a phase's first seconds on its new market and wallets, with a newly started generator, were 2-3 times
// slower than the rest (docs/performance.md, sixth session); --warmup 0 measures them.
// --timeline prints latency per half second of each phase (by answer time). --answers writes every
// counted answer's time and latency to <prefix>.<phase>.txt, for slow-answers.mjs.
// Both use the plain-socket client of raw-http.mjs: the generator shares the two cores with the exchange,
// so the CPU each process spent per accepted order in each phase is printed (process-cpu.mjs), with the
// rate the cores could serve at that CPU per order, after three figures of the machine itself
// (machine-fingerprint.mjs).
// Orders are pre-signed (EIP-712 V2 with native secp256k1) so that the generator spends its CPU on HTTP;
// every request carries fresh L2 HMAC headers, computed as it leaves. Orders alternate between sellers
// and buyers (--traders in all, half each, taking turns so that each API key stays far below its rate
// limit of 2,400 orders per 10 s) and rest or cross in about equal parts, so the engine matches, settles
// and journals real trades. An order is accepted when it is answered 200 (a refused one is 400, 429 or 503).
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { closedLoop } from './closed-loop.mjs';
import { machineFingerprint } from './machine-fingerprint.mjs';
import { openLoop } from './open-loop.mjs';
import { cpuPerUnit, cpuSnapshot } from './process-cpu.mjs';
import { httpRequest } from './raw-http.mjs';
import { ADMIN, credentials, freshMarket, httpCaller, l2Headers, orderBody, splitOnceKnown, wallet } from './trading-client.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
const BASE = args.base ?? 'http://127.0.0.1:8080';
const RATE = Number(args.rate ?? 2000);
const SECONDS = Number(args.seconds ?? 10);
const CONNECTIONS = Number(args.connections ?? 64);
const WARM_UP = Number(args.warmup ?? 2);
const PHASES = (args.phases ?? 'fixed,saturation').split(',');
const TIMELINE = args.timeline !== undefined;
const ANSWERS = args.answers;
const PAIRS = Math.max(1, Math.floor(Number(args.traders ?? 20) / 2));
const call = httpCaller(BASE);

async function setUp(count) {
  const { conditionId, yes } = await freshMarket(call, 'load');
  // Sellers at even indexes, buyers at odd ones.
  const traders = Array.from({ length: PAIRS * 2 }, () => wallet());
  const creds = await Promise.all(traders.map((t) => credentials(call, t)));
  for (const t of traders) await call('POST', '/admin/deposits', ADMIN, JSON.stringify({ address: t.address, amount: '100000' }));
  // The sellers' shares.
  for (let seller = 0; seller < traders.length; seller += 2) await splitOnceKnown(call, traders[seller], creds[seller], conditionId, '50000');
  // Pre-sign: the sellers ask 0.50-0.54, the buyers bid 0.46-0.52: about half of the bids cross.
  const orders = [];
  for (let i = 0; i < count; i++) {
    const seller = i % 2 === 0;
    const cents = seller ? 50 + (i % 5) : 46 + (i % 7);
    const trader = (Math.floor(i / 2) % PAIRS) * 2 + (seller ? 0 : 1);
    const body = orderBody(traders[trader], creds[trader], yes, seller ? 'SELL' : 'BUY', 5_000_000, cents * 50_000);
    orders.push({ trader: traders[trader], creds: creds[trader], body });
  }
  return { conditionId, orders };
}

/**
 * Resolves the phase's market, which cancels its resting orders: runs would otherwise leave thousands of
 * them in the engine's memory and the database, and every later run and restart would carry them.
 */
async function tearDown(conditionId) {
  const resolved = await call('POST', `/admin/markets/${conditionId}/resolve`, ADMIN, JSON.stringify({ winningOutcome: 'Yes' }));
  if (resolved.status !== 200) console.log(`  (market ${conditionId} not resolved: ${resolved.status} ${JSON.stringify(resolved.body)})`);
}

/** The next pre-signed order as a raw request with fresh L2 headers (a repeat, past the end, is refused as a duplicate). */
function requests(orders) {
  let next = 0;
  return () => {
    const { trader, creds, body } = orders[next++ % orders.length];
    return httpRequest(BASE, 'POST', '/order', l2Headers(trader, creds, body, '/order'), body);
  };
}

/**
 * The CPU of every process from the end of a phase's warm-up (`run` calls `onMeasuring` then) to its
 * end, the generator's own included: they share the cores.
 */
async function measured(run) {
  let before = cpuSnapshot();
  const outcome = await run(() => {
    before = cpuSnapshot();
  });
  return { ...outcome, cpu: cpuPerUnit(before, cpuSnapshot(), outcome.statuses[200] ?? 1) };
}

const fmt = (ms) => `${ms.toFixed(2)} ms`;
// Which answers the failures were: 0 is a connection closed before its answer (raw-http.mjs).
const failures = (statuses) => {
  const other = Object.entries(statuses).filter(([status]) => status !== '200');
  return other.length ? ` (${other.map(([status, n]) => `status ${status}: ${n}`).join(', ')})` : '';
};
const report = (r, phase) => {
  const accepted = r.statuses[200] ?? 0;
  if (ANSWERS) writeFileSync(`${ANSWERS}.${phase}.txt`, `${r.answers.join('\n')}\n`);
  if (WARM_UP > 0) console.log(`  warm-up: ${WARM_UP} s, ${r.warmUp} requests answered, not counted below`);
  console.log(`  sent ${r.sent}, accepted ${accepted} (${(accepted / r.elapsed).toFixed(0)} orders/s), failed ${r.sent - accepted}${failures(r.statuses)}, in ${r.elapsed.toFixed(2)} s`);
  console.log(`  p50 ${fmt(r.p50)}  p99 ${fmt(r.p99)}  max ${fmt(r.max)}`);
  const groups = r.cpu.groups.map(([group, ms]) => `${group} ${ms.toFixed(3)}`).join(', ');
  console.log(`  CPU per accepted order: ${r.cpu.machine.toFixed(3)} ms (${groups}); machine idle ${(r.cpu.idleShare * 100).toFixed(0)}%, ${r.cpu.contextSwitches.toFixed(1)} context switches per order`);
  // What the machine's cores could serve at this CPU per order, the generator included: no run goes above it.
  console.log(`  at most ${((cpus().length * 1000) / r.cpu.machine).toFixed(0)} orders/s on this machine's ${cpus().length} cores at that CPU per order`);
  if (!TIMELINE) return;
  for (const t of r.timeline) {
    console.log(`    ${t.from.toFixed(1).padStart(5)} s  ${String(t.answered).padStart(5)} answered  p50 ${fmt(t.p50)}  p99 ${fmt(t.p99)}  max ${fmt(t.max)}`);
  }
};

const machine = await machineFingerprint();
console.log(
  `machine: wake-up round trip ${machine.wakeUpRoundTrip.toFixed(1)} µs, idle wake-up ${machine.idleWakeUp.toFixed(0)} µs, ` +
    `secp256k1 recovery ${machine.recovery.toFixed(1)} µs (machine-fingerprint.mjs)`,
);

if (PHASES.includes('fixed')) {
  const { conditionId, orders } = await setUp(RATE * (WARM_UP + SECONDS));
  console.log(`fixed rate: ${RATE}/s for ${SECONDS} s (open loop, latency from the scheduled send time)`);
  const phase = { url: BASE, rate: RATE, seconds: SECONDS, warmUpSeconds: WARM_UP, connections: CONNECTIONS, nextRequest: requests(orders) };
  report(await measured((onMeasuring) => openLoop({ ...phase, onMeasuring })), 'fixed');
  await tearDown(conditionId);
}
if (PHASES.includes('saturation')) {
  // More orders than the phase can send: each order may be placed once only (6,000 a second ran out
  // on a machine that took 6,000/s, and the repeats were refused as duplicates).
  const { conditionId, orders } = await setUp(10_000 * (WARM_UP + SECONDS));
  console.log(`saturation: ${CONNECTIONS} requests in flight for ${SECONDS} s`);
  const phase = { url: BASE, seconds: SECONDS, warmUpSeconds: WARM_UP, connections: CONNECTIONS, nextRequest: requests(orders) };
  report(await measured((onMeasuring) => closedLoop({ ...phase, onMeasuring })), 'saturation');
  await tearDown(conditionId);
}
