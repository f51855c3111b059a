import fc from 'fast-check';
import { IdIndex } from '../../../src/core/id-index';
import { LevelSet } from '../../../src/core/level-set';

/** A cheap equality check for hot loops (expect() costs microseconds a call). */
function check(what: string, actual: number, expected: number): void {
  if (actual !== expected) throw new Error(`${what}: got ${actual}, expected ${expected}`);
}

describe('IdIndex (id -> slot hash table) against a Map', () => {
  const ops = fc.array(
    fc.record({
      add: fc.boolean(),
      // Small ids collide and form long probe runs in a small table; big ids check the high word is hashed.
      id: fc.oneof(fc.integer({ min: 0, max: 300 }), fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER })),
    }),
    { maxLength: 600, size: 'max' },
  );

  it('answers like a Map through adds, removes and growth', () => {
    fc.assert(
      fc.property(ops, (steps) => {
        const index = new IdIndex(16);
        const model = new Map<number, number>();
        steps.forEach(({ add, id }, slot) => {
          if (add && !model.has(id)) {
            index.add(id, slot);
            model.set(id, slot);
          } else {
            check(`remove ${id}`, index.remove(id), model.get(id) ?? -1);
            model.delete(id);
          }
          check('size', index.size, model.size);
        });
        for (let id = 0; id <= 300; id++) check(`get ${id}`, index.get(id), model.get(id) ?? -1);
        for (const [id, slot] of model) check(`get ${id}`, index.get(id), slot);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps sequential ids (the service sequence) findable after removing every other one', () => {
    const index = new IdIndex(16);
    for (let id = 1; id <= 100_000; id++) index.add(id, id);
    for (let id = 2; id <= 100_000; id += 2) check(`remove ${id}`, index.remove(id), id);
    for (let id = 1; id <= 100_000; id++) check(`get ${id}`, index.get(id), id % 2 === 1 ? id : -1);
    expect(index.size).toBe(50_000);
  });
});

describe('LevelSet (bitset of non-empty levels) against a sorted scan', () => {
  const CAPACITY = 10_001;
  const level = fc.oneof(fc.integer({ min: 0, max: CAPACITY - 1 }), fc.constantFrom(0, 31, 32, 1023, 1024, 1025, 9_999, 10_000));

  it('finds the nearest member above and below any point', () => {
    fc.assert(
      fc.property(fc.array(fc.record({ add: fc.boolean(), level }), { maxLength: 200 }), fc.array(fc.integer({ min: -2, max: CAPACITY + 1 }), { maxLength: 50 }), (steps, probes) => {
        const set = new LevelSet(CAPACITY);
        const model = new Set<number>();
        for (const { add, level: l } of steps) {
          if (add) {
            set.add(l);
            model.add(l);
          } else {
            set.remove(l);
            model.delete(l);
          }
        }
        const members = [...model].sort((a, b) => a - b);
        for (const from of [...probes, ...members, 0, CAPACITY - 1]) {
          check(`nextUp(${from})`, set.nextUp(from), members.find((m) => m >= from) ?? -1);
          check(`nextDown(${from})`, set.nextDown(from), members.filter((m) => m <= from).pop() ?? -1);
        }
        for (const m of members) check(`has(${m})`, Number(set.has(m)), 1);
      }),
      { numRuns: 500 },
    );
  });
});
