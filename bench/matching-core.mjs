// Matching-core benchmark: our OrderBook (apps/order-matching/src/core, compiled to dist/core) against the
// npm package nodejs-order-book, on one seeded mixed workload on ONE book, in the same process.
//
//   pnpm --filter @exchange/bench matching-core [-- options]     (compiles the core first)
//   node --expose-gc matching-core.mjs [--ops N] [--rounds R] [--seed S] [--resting N]
//     --core-only   our core alone (for --cpu-prof or comparing two versions)
//     --gen-only    print the workload's statistics and stop
//
// The workload is generated up front and replayed identically into each implementation: the book starts
// with --resting orders (placed before the clock starts), then --ops commands: ~60% GTC limit places
// around a drifting mid (about a quarter of them cross), ~15% FAK (IOC) takers with an off-grid
// worst-price cap, ~25% cancels of orders live at that point. Sizes are 0.01-share multiples.
// Throughput: the whole stream without timers, R rounds on fresh books; median and best round by wall
// clock, and the median per CPU second of this process (steadier when other work shares the machine).
// Latency: a separate pass timing every op with process.hrtime.bigint(); the cost of an empty timed
// region (measured the same way) is subtracted from each percentile and printed so it can be judged.
import { createRequire } from 'node:module';
import os from 'node:os';

const require = createRequire(import.meta.url);
const core = require('../apps/order-matching/dist/core/index.js');
const { OrderBook: NobOrderBook } = require('nodejs-order-book');

/** --name value, or --name alone (true). */
const args = {};
for (let i = 2; i < process.argv.length; i++) {
  const name = process.argv[i].replace(/^--/, '');
  const value = process.argv[i + 1];
  if (value === undefined || value.startsWith('--')) args[name] = true;
  else args[name] = process.argv[++i];
}
const OPS = Number(args.ops ?? 1_000_000);
const ROUNDS = Number(args.rounds ?? 5);
const SEED = Number(args.seed ?? 42);
const WARMUP_OPS = 200_000;
const TARGET_RESTING = Number(args.resting ?? 5_000);

// ---------------------------------------------------------------------------------------------- workload
const PLACE = 0;
const FAK = 1;
const CANCEL = 2;

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Generates `prefill` resting orders (the book's depth, placed before the clock starts) and then `count`
 * measured commands. Which orders are live (so cancels hit live orders) is tracked by running the stream
 * through a scratch OrderBook while generating; the stream itself is plain data.
 *
 * Prices: the mid drifts (a random walk in steps of 0.001); passive GTC orders rest 0.0005 .. 0.2 behind it
 * (mostly near it); marketable GTC orders are priced at the opposite best or up to 0.003 through it; FAK
 * takers carry an off-grid worst-price cap up to 0.005 through the opposite best. To keep the book near
 * TARGET_RESTING orders without changing the 60/15/25 mix, the share of marketable GTC orders steers
 * between 15% (book below target) and 30% (above).
 */
function generate(count, seed, prefill) {
  const total = prefill + count;
  const rnd = mulberry32(seed);
  const kind = new Uint8Array(total);
  const id = new Float64Array(total);
  const side = new Uint8Array(total);
  const price = new Float64Array(total);
  const size = new Float64Array(total);

  const scratch = new core.OrderBook();
  const fills = [];
  const live = []; // ids resting on the scratch book
  const at = new Map(); // id -> index in live
  const drop = (oid) => {
    const i = at.get(oid);
    if (i === undefined) return;
    const last = live.pop();
    if (last !== oid) {
      live[i] = last;
      at.set(last, i);
    }
    at.delete(oid);
  };

  let mid = 5_000; // in ticks of 100: 0.5000
  let nextId = 1;
  let crossingPlaces = 0;
  let places = 0;
  let restingSum = 0;
  let fillCount = 0;
  for (let i = 0; i < total; i++) {
    const measured = i >= prefill;
    if (measured) restingSum += scratch.size;
    // The mid drifts: a slow random walk, kept inside (0.05, 0.95).
    if (measured && rnd() < 0.02) mid = Math.min(9_500, Math.max(500, mid + (rnd() < 0.5 ? -10 : 10)));
    const r = measured ? rnd() : 0;
    const k = r < 0.6 ? PLACE : r < 0.75 ? FAK : CANCEL;
    kind[i] = k;
    if (k === CANCEL) {
      const oid = live[Math.floor(rnd() * live.length)];
      id[i] = oid;
      scratch.cancel(oid);
      drop(oid);
      continue;
    }
    const s = rnd() < 0.5 ? 0 : 1;
    const oid = nextId++;
    id[i] = oid;
    side[i] = s;
    size[i] = (1 + Math.floor(rnd() * rnd() * 20_000)) * 10_000; // 0.01 .. 200 shares, mostly small
    const away = s === 0 ? -1 : 1; // direction away from the other side
    // The opposite best in ticks of 100, or the mid when that side is empty.
    const oppositeBest = s === 0 ? scratch.bestAsk() : scratch.bestBid();
    const touch = oppositeBest === 0 || oppositeBest === 1_000_000 ? mid : oppositeBest / 100;
    const crossShare = scratch.size > TARGET_RESTING ? 0.3 : 0.15;
    if (k === PLACE) {
      if (measured && rnd() < crossShare) {
        price[i] = Math.min(9_999, Math.max(1, touch - away * 10 * Math.floor(rnd() * 4))) * 100;
      } else {
        const behind = 5 + Math.floor(rnd() * rnd() * rnd() * 2_000);
        price[i] = Math.min(9_999, Math.max(1, mid + away * behind)) * 100;
      }
    } else {
      price[i] = Math.min(1_000_000, Math.max(0, touch * 100 - away * Math.floor(rnd() * 5_000)));
    }
    fills.length = 0;
    const res = scratch.place({ id: oid, side: s, price: price[i], size: size[i], tif: k === PLACE ? 'GTC' : 'FAK', postOnly: false }, fills);
    for (const f of fills) if (f.makerRemaining === 0) drop(f.makerId);
    if (measured) fillCount += fills.length;
    if (k === PLACE && measured) {
      places++;
      if (res.filled > 0) crossingPlaces++;
    }
    if (res.outcome === 'RESTING') {
      at.set(oid, live.length);
      live.push(oid);
    }
  }
  return {
    prefill,
    total,
    count,
    kind,
    id,
    side,
    price,
    size,
    crossRate: crossingPlaces / places,
    fillCount,
    finalResting: scratch.size,
    meanResting: restingSum / count,
  };
}

// ------------------------------------------------------------------------------------------- adapters
/** Our core: commands prebuilt as PlaceCommand objects; one fills array reused (cleared) per place. */
function coreRunner(w) {
  const cmds = new Array(w.total);
  for (let i = 0; i < w.total; i++) {
    if (w.kind[i] !== CANCEL) {
      cmds[i] = { id: w.id[i], side: w.side[i], price: w.price[i], size: w.size[i], tif: w.kind[i] === PLACE ? 'GTC' : 'FAK', postOnly: false };
    }
  }
  const fills = [];
  let book = null;
  return {
    name: 'ours (OrderBook)',
    workload: w,
    reset() {
      book = new core.OrderBook();
      this.run(0, w.prefill);
    },
    op(i) {
      if (cmds[i] === undefined) return book.cancel(w.id[i]);
      if (fills.length !== 0) fills.length = 0; // most places fill nothing: skip the length store
      return book.place(cmds[i], fills);
    },
    run(from, to) {
      for (let i = from; i < to; i++) {
        if (cmds[i] === undefined) {
          book.cancel(w.id[i]);
        } else {
          if (fills.length !== 0) fills.length = 0;
          book.place(cmds[i], fills);
        }
      }
    },
    state() {
      return { resting: book.size, bid: book.depth(0, 5), ask: book.depth(1, 5) };
    },
  };
}

/** nodejs-order-book: limit orders with GTC / IOC, cancel by id (its ids are strings, made up front). */
function nobRunner(w) {
  const opts = new Array(w.total);
  const ids = new Array(w.total);
  for (let i = 0; i < w.total; i++) {
    ids[i] = String(w.id[i]);
    if (w.kind[i] !== CANCEL) {
      opts[i] = {
        id: ids[i],
        side: w.side[i] === 0 ? 'buy' : 'sell',
        size: w.size[i],
        price: w.price[i],
        timeInForce: w.kind[i] === PLACE ? 'GTC' : 'IOC',
      };
    }
  }
  let book = null;
  return {
    name: 'nodejs-order-book',
    workload: w,
    reset() {
      book = new NobOrderBook();
      this.run(0, w.prefill);
    },
    op(i) {
      if (opts[i] === undefined) return book.cancel(ids[i]);
      return book.limit(opts[i]);
    },
    run(from, to) {
      for (let i = from; i < to; i++) {
        if (opts[i] === undefined) book.cancel(ids[i]);
        else book.limit(opts[i]);
      }
    },
    state() {
      const [asks, bids] = book.depth();
      const snap = book.snapshot();
      const resting = [...snap.bids, ...snap.asks].reduce((n, level) => n + level.orders.length, 0);
      return {
        resting,
        bid: bids.slice(0, 5).map(([price, size]) => ({ price, size })),
        ask: asks.slice(0, 5).map(([price, size]) => ({ price, size })),
      };
    },
  };
}

// ------------------------------------------------------------------------------------------- measuring
const gc = typeof globalThis.gc === 'function' ? globalThis.gc : () => {};

/**
 * Resets the book (with its depth), then runs the measured commands in the runner's own loop (one call
 * site, one implementation). Answers wall-clock and CPU nanoseconds.
 */
function runAll(runner) {
  runner.reset();
  const { prefill, total } = runner.workload;
  const c0 = process.cpuUsage();
  const t0 = process.hrtime.bigint();
  runner.run(prefill, total);
  const wall = Number(process.hrtime.bigint() - t0);
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) * 1_000 };
}

/** ROUNDS runs on fresh books: ops per wall-clock second and per CPU second, median and best. */
function throughput(runner, w) {
  const wall = [];
  const cpu = [];
  for (let r = 0; r < ROUNDS; r++) {
    gc();
    const ns = runAll(runner);
    wall.push((w.count / ns.wall) * 1e9);
    cpu.push((w.count / ns.cpu) * 1e9);
  }
  const median = (xs) => xs.sort((a, b) => a - b)[xs.length >> 1];
  return { median: median(wall), best: Math.max(...wall), cpu: median(cpu) };
}

function percentiles(samples) {
  const sorted = Float64Array.from(samples).sort();
  const q = (p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
  return { p50: q(0.5), p99: q(0.99), p999: q(0.999), max: sorted[sorted.length - 1] };
}

/** The timer's own cost: the same loop with an empty timed region. */
function timerBaseline(count) {
  const lat = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const t0 = process.hrtime.bigint();
    const t1 = process.hrtime.bigint();
    lat[i] = Number(t1 - t0);
  }
  return percentiles(lat);
}

function latency(runner, w) {
  gc();
  runner.reset();
  const lat = new Float64Array(w.count);
  for (let i = 0; i < w.count; i++) {
    const t0 = process.hrtime.bigint();
    runner.op(w.prefill + i);
    const t1 = process.hrtime.bigint();
    lat[i] = Number(t1 - t0);
  }
  return percentiles(lat);
}

// ------------------------------------------------------------------------------------------------ main
const warm = generate(WARMUP_OPS, SEED + 1, TARGET_RESTING);
const work = generate(OPS, SEED, TARGET_RESTING);
const mix = { place: 0, fak: 0, cancel: 0 };
for (let i = work.prefill; i < work.total; i++) mix[['place', 'fak', 'cancel'][work.kind[i]]]++;
if ('gen-only' in args) {
  console.log({ mix, crossRate: work.crossRate, finalResting: work.finalResting, meanResting: work.meanResting, fills: work.fillCount });
  process.exit(0);
}

const impls = [
  { main: coreRunner(work), warm: coreRunner(warm) },
  { main: nobRunner(work), warm: nobRunner(warm) },
];
if ('core-only' in args) {
  // Our core alone (for profiling with --cpu-prof, or comparing two versions of the core).
  const [{ main, warm: w }] = impls;
  for (let r = 0; r < 3; r++) runAll(w);
  const t = throughput(main, work);
  console.log(`ours: median ${(t.median / 1e6).toFixed(2)} M ops/s, best ${(t.best / 1e6).toFixed(2)} M ops/s, ${(t.cpu / 1e6).toFixed(2)} M ops per CPU second`);
  process.exit(0);
}

// Warm up: each implementation runs the warm-up stream three times (JIT), then once over the real stream.
for (const { main, warm: w } of impls) {
  for (let r = 0; r < 3; r++) runAll(w);
  runAll(main);
}

// Both implementations must end in the same state (a cheap check that they ran the same workload).
const states = impls.map(({ main }) => main.state());
const agree = JSON.stringify(states[0]) === JSON.stringify(states[1]);
if (!agree) console.error(JSON.stringify(states));

const results = impls.map(({ main }) => ({ name: main.name, tput: throughput(main, work) }));
const base = timerBaseline(work.count);
for (const [i, { main }] of impls.entries()) {
  latency(main, work); // a first pass warms up the timed loop itself; the second is reported
  results[i].lat = latency(main, work);
}

const fmtRate = (x) => `${(x / 1e6).toFixed(2)} M`;
const fmtNs = (raw, b) => `${Math.max(0, raw - b).toFixed(0)} ns (${raw.toFixed(0)})`;
const loaded = os.loadavg()[0];
console.log(
  `matching-core benchmark: node ${process.version}, ${os.cpus().length} CPUs (load average ${loaded.toFixed(1)} at the end), ` +
    `${work.count.toLocaleString('en')} ops on one book, seed ${SEED}, ${ROUNDS} rounds`,
);
console.log(
  `workload: ${((100 * mix.place) / work.count).toFixed(1)}% GTC places (${(100 * work.crossRate).toFixed(1)}% of them cross), ` +
    `${((100 * mix.fak) / work.count).toFixed(1)}% FAK/IOC, ${((100 * mix.cancel) / work.count).toFixed(1)}% cancels of live orders; ` +
    `${work.fillCount.toLocaleString('en')} fills; the book starts with ${work.prefill.toLocaleString('en')} resting orders (untimed) and holds ` +
    `${Math.round(work.meanResting).toLocaleString('en')} on average`,
);
console.log(`final books agree (resting count and 5 levels each side): ${agree ? 'yes' : 'NO'}${typeof globalThis.gc === 'function' ? '' : '  [run with --expose-gc for GC between phases]'}`);
console.log('throughput: the whole stream without timers, per wall-clock second (median and best round) and per CPU second of this process, GC threads included (median)');
console.log(
  `latency: one op per hrtime.bigint() pair; the empty pair costs p50 ${base.p50} ns, p99 ${base.p99} ns, p99.9 ${base.p999} ns, ` +
    'subtracted from the same percentile (raw figure in parentheses)',
);
console.log('');
const header = ['implementation', 'ops/s median', 'ops/s best', 'ops/CPU-s', 'p50', 'p99', 'p99.9'];
const rows = results.map((r) => [
  r.name,
  fmtRate(r.tput.median),
  fmtRate(r.tput.best),
  fmtRate(r.tput.cpu),
  fmtNs(r.lat.p50, base.p50),
  fmtNs(r.lat.p99, base.p99),
  fmtNs(r.lat.p999, base.p999),
]);
const [ours, theirs] = results;
const ratio = (a, b) => `${(a / b).toFixed(1)}x`;
rows.push([
  'ours / nodejs-order-book',
  ratio(ours.tput.median, theirs.tput.median),
  ratio(ours.tput.best, theirs.tput.best),
  ratio(ours.tput.cpu, theirs.tput.cpu),
  ratio(theirs.lat.p50 - base.p50, ours.lat.p50 - base.p50),
  ratio(theirs.lat.p99 - base.p99, ours.lat.p99 - base.p99),
  ratio(theirs.lat.p999 - base.p999, ours.lat.p999 - base.p999),
]);
const widths = header.map((h, c) => Math.max(h.length, ...rows.map((r) => r[c].length)));
const line = (cells) => '| ' + cells.map((x, c) => (c === 0 ? x.padEnd(widths[c]) : x.padStart(widths[c]))).join(' | ') + ' |';
console.log(line(header));
console.log('|' + widths.map((w, c) => (c === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|') + '|');
for (const r of rows) console.log(line(r));
console.log('');
const targets = [
  ['>= 2,000,000 ops/s (median round, wall clock)', ours.tput.median >= 2e6],
  ['p99 < 2 us per op (timer cost subtracted)', ours.lat.p99 - base.p99 < 2000],
  ['>= 7x nodejs-order-book (median rounds, wall clock)', ours.tput.median / theirs.tput.median >= 7],
];
for (const [what, ok] of targets) console.log(`${ok ? 'met    ' : 'NOT MET'}  ${what}`);
