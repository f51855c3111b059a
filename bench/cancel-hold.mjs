// How long one account's large cancel holds other traders' orders, against a running exchange
// (./scripts/start.sh first).
//
//   node cancel-hold.mjs [--base http://127.0.0.1:8080] [--orders 10000] [--rate 200] [--mode cancel-all|resolve|expire] [--expire-in 25]
//
// One wallet rests --orders bids of 5 shares at 0.01-0.30 on a fresh market (POST /orders of 15, within
// its rate limit of 2,400 orders per 10 s, then 240 a second: a batch refused with 429 is sent again after
// its Retry-After; start the exchange with RATE_LIMIT_SCALE=10 to rest them at once), while two
// other traders place crossing orders at --rate per second on an open-loop schedule (latency from each
// order's scheduled time). 1.5 s in, the wallet sends DELETE /cancel-all (or the operator resolves the
// market: --mode resolve; or the wallet's bids, all GTD, come due in the same second --expire-in seconds
// after the start: --mode expire, timed until the wallet's open orders read none). Printed: how long the cancel took to answer, and the other traders' latencies
// before it and over the whole run: how long the cancel held them (docs/trading.md, "Large cancels").
import { performance } from 'node:perf_hooks';
import { ADMIN, credentials, freshMarket, httpCaller, l2Headers, orderBody, splitOnceKnown, wallet } from './trading-client.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).reduce((pairs, a, i, all) => (a.startsWith('--') ? [...pairs, [a.slice(2), all[i + 1]]] : pairs), []),
);
const BASE = args.base ?? 'http://127.0.0.1:8080';
const ORDERS = Number(args.orders ?? 10_000);
const RATE = Number(args.rate ?? 200);
const MODE = args.mode ?? 'cancel-all';
/** --mode expire: when the bids leave the book (unix ms, a whole second); their expiration is 60 s later (docs/trading.md). */
const DUE_MS = (Math.ceil(Date.now() / 1000) + Number(args['expire-in'] ?? 25)) * 1000;
const EXPIRATION = MODE === 'expire' ? DUE_MS / 1000 + 60 : 0;
const call = httpCaller(BASE);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
const sorted = (values) => [...values].sort((a, b) => a - b);
const at = (values, p) => values[Math.min(values.length - 1, Math.floor((values.length * p) / 100))] ?? NaN;

const { conditionId, yes } = await freshMarket(call, 'hold');

const [big, buyer, seller] = [wallet(), wallet(), wallet()];
const [bigCreds, buyerCreds, sellerCreds] = await Promise.all([big, buyer, seller].map((t) => credentials(call, t)));
for (const t of [big, buyer, seller]) await call('POST', '/admin/deposits', ADMIN, JSON.stringify({ address: t.address, amount: '10000000' }));
await splitOnceKnown(call, seller, sellerCreds, conditionId, '100000');

const placing = performance.now();
for (let from = 0; from < ORDERS; from += 15 * 16) {
  const requests = [];
  for (let i = from; i < Math.min(ORDERS, from + 15 * 16); i += 15) {
    const orders = Array.from({ length: Math.min(15, ORDERS - i) }, (_, j) => JSON.parse(orderBody(big, bigCreds, yes, 'BUY', 5_000_000, (1 + ((i + j) % 30)) * 50_000, EXPIRATION)));
    const body = JSON.stringify(orders);
    requests.push((async () => {
      for (;;) {
        const r = await call('POST', '/orders', l2Headers(big, bigCreds, body, '/orders'), body);
        if (r.status === 200) return;
        if (r.status !== 429) throw new Error(`POST /orders: ${r.status} ${JSON.stringify(r.body).slice(0, 300)}`);
        await sleep(r.body.retry_after_seconds * 1_000);
      }
    })());
  }
  await Promise.all(requests);
}
console.log(`rested ${ORDERS} orders of one wallet in ${(performance.now() - placing).toFixed(0)} ms`);

if (MODE === 'expire') {
  if (Date.now() > DUE_MS - 2_000) throw new Error('the bids were still being placed 2 s before they came due: raise --expire-in');
  await sleep(DUE_MS - 1_500 - Date.now());
}

// The other traders: a SELL at 0.50 and a BUY at 0.49 in turn, neither touching the wallet's bids.
const answers = [];
let running = true;
const flow = (async () => {
  const start = performance.now();
  const inFlight = [];
  for (let n = 0; running; n++) {
    const due = start + (n * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    const [trader, creds, side, cents] = n % 2 === 0 ? [seller, sellerCreds, 'SELL', 50] : [buyer, buyerCreds, 'BUY', 49];
    const body = orderBody(trader, creds, yes, side, 5_000_000, cents * 50_000);
    inFlight.push(fetch(`${BASE}/order`, { method: 'POST', headers: l2Headers(trader, creds, body, '/order'), body }).then(async (r) => {
      await r.text();
      answers.push({ due, ms: performance.now() - due, status: r.status });
    }));
  }
  await Promise.all(inFlight);
})();
/** --mode expire: polls the wallet's open orders until none is left; answers when that was seen. */
async function untilExpired() {
  for (;;) {
    const open = await call('GET', '/data/orders', l2Headers(big, bigCreds, '', '/data/orders', 'GET'));
    if (open.status === 200 && open.body.count === 0) return { status: 200 };
    await sleep(20);
  }
}
await sleep(MODE === 'expire' ? DUE_MS - Date.now() : 1_500);
const sent = performance.now();
const cancelled =
  MODE === 'resolve'
    ? await call('POST', `/admin/markets/${conditionId}/resolve`, ADMIN, JSON.stringify({ winningOutcome: 'Yes' }))
    : MODE === 'expire'
      ? await untilExpired()
      : await call('DELETE', '/cancel-all', l2Headers(big, bigCreds, '', '/cancel-all', 'DELETE'));
const took = performance.now() - sent;
await sleep(1_500);
running = false;
await flow;
if (MODE !== 'resolve') await call('POST', `/admin/markets/${conditionId}/resolve`, ADMIN, JSON.stringify({ winningOutcome: 'Yes' }));

const count = MODE === 'cancel-all' ? `, ${cancelled.body?.canceled?.length} cancelled` : '';
console.log(`${MODE}: ${cancelled.status}${count}, ${MODE === 'expire' ? 'all ended' : 'answered'} in ${took.toFixed(0)} ms`);
const before = sorted(answers.filter((a) => a.due < sent - 200).map((a) => a.ms));
const all = sorted(answers.map((a) => a.ms));
const statuses = Object.entries(answers.reduce((m, a) => ({ ...m, [a.status]: (m[a.status] ?? 0) + 1 }), {})).map(([s, n]) => `${s}: ${n}`).join(', ');
console.log(`other traders at ${RATE}/s: ${answers.length} orders (${statuses})`);
console.log(`  before the ${MODE}: p50 ${at(before, 50).toFixed(1)} ms, max ${before.at(-1).toFixed(1)} ms`);
console.log(`  whole run: p99 ${at(all, 99).toFixed(1)} ms, max ${all.at(-1).toFixed(1)} ms, ${all.filter((ms) => ms > 100).length} over 100 ms`);
