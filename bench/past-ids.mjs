// The memory and garbage-collection cost of order-matching's ended order ids with their seqs, which grow
// with the exchange's whole history: a Map of id strings to seqs against EndedOrderIds (typed arrays);
// a Set of the strings alone for comparison. Per structure:
// bytes per id (heap plus array buffers, after a full collection), the time of a full collection while
// it is alive, and ns per lookup of a present and of an absent id. Needs the built app (pnpm build).
//
//   node --expose-gc past-ids.mjs [--ids 2000000]
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { EndedOrderIds } = require('../apps/order-matching/dist/engine/ended-order-ids.js');

if (typeof gc !== 'function') throw new Error('run with node --expose-gc');
const flag = process.argv.indexOf('--ids');
const IDS = flag === -1 ? 2_000_000 : Number(process.argv[flag + 1]);
const LOOKUPS = 200_000;

const used = () => {
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};
const fullGcMs = () => {
  // The first collections after the ids' strings die also give the emptied heap pages back (40-100 ms
  // each here): settle first, to time the collections the structure itself costs.
  for (let i = 0; i < 5; i++) gc();
  const times = [];
  for (let i = 0; i < 5; i++) {
    const started = process.hrtime.bigint();
    gc();
    times.push(Number(process.hrtime.bigint() - started) / 1e6);
  }
  return times.sort((a, b) => a - b)[2];
};
const nsPerLookup = (set, ids) => {
  const started = process.hrtime.bigint();
  let found = 0;
  for (let i = 0; i < LOOKUPS; i++) if (set.has(ids[i % ids.length])) found++;
  const ns = Number(process.hrtime.bigint() - started) / LOOKUPS;
  return { ns, found };
};

function measure(name, make, add) {
  const absent = Array.from({ length: 10_000 }, () => `0x${randomBytes(32).toString('hex')}`);
  const before = used();
  // The ids are made as the engine receives them: each a fresh string from hex. A 1% sample stays
  // alive for the lookups (counted in the figure: under 1 byte per id).
  let ids = Array.from({ length: IDS }, () => `0x${randomBytes(32).toString('hex')}`);
  const sample = ids.filter((_, i) => i % 100 === 0);
  const set = make();
  ids.forEach((id, seq) => add(set, id, seq + 1));
  ids = null; // only the structure keeps them now
  const bytes = used() - before;
  const gcMs = fullGcMs();
  nsPerLookup(set, sample);
  const present = nsPerLookup(set, sample);
  const missing = nsPerLookup(set, absent);
  if (present.found !== LOOKUPS || missing.found !== 0) throw new Error(`${name}: wrong answers`);
  console.log(
    `${name.padEnd(14)} ${(bytes / IDS).toFixed(0).padStart(5)} bytes/id   full GC ${gcMs.toFixed(1).padStart(6)} ms   ` +
      `lookup ${present.ns.toFixed(0)} ns (present), ${missing.ns.toFixed(0)} ns (absent)`,
  );
  return set;
}

console.log(`${IDS.toLocaleString('en-US')} ended order ids`);
let keep = measure('Set<string>', () => new Set(), (set, id) => set.add(id));
keep = null;
keep = measure('Map<string>', () => new Map(), (map, id, seq) => map.set(id, seq));
keep = null;
keep = measure('EndedOrderIds', () => new EndedOrderIds(), (ended, id, seq) => ended.add(id, seq));
if (keep.size !== IDS) throw new Error('EndedOrderIds lost ids');
