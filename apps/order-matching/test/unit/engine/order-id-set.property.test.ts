import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { OrderIdSet } from '../../../src/engine/order-id-set';

const hashId = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}`);
/** Ids that differ in a late word only, so that they share a hash slot and probe past each other. */
const collidingId = fc.nat({ max: 15 }).map((n) => `0x${'ab'.repeat(28)}${n.toString(16).padStart(8, '0')}`);
const otherId = fc.oneof(fc.string(), hashId.map((id) => id.toUpperCase()), hashId.map((id) => id.slice(0, 40)));

describe('OrderIdSet (ended order ids in one typed array)', () => {
  it('answers as a Set of the same strings would, whatever is added and asked', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ add: fc.boolean(), id: fc.oneof(hashId, collidingId, otherId) }), { maxLength: 300 }),
        (steps) => {
          const set = new OrderIdSet();
          const model = new Set<string>();
          for (const { add, id } of steps) {
            if (add) {
              set.add(id);
              model.add(id);
            }
            expect(set.has(id)).toBe(model.has(id));
            expect(set.size).toBe(model.size);
          }
          for (const id of model) expect(set.has(id)).toBe(true);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('keeps every id through several growths of its table, and no others', () => {
    const set = new OrderIdSet();
    const ids = Array.from({ length: 40_000 }, () => `0x${randomBytes(32).toString('hex')}`);
    for (const id of ids) set.add(id);
    for (const id of ids) set.add(id);
    expect(set.size).toBe(ids.length);
    expect(ids.every((id) => set.has(id))).toBe(true);
    const strangers = Array.from({ length: 10_000 }, () => `0x${randomBytes(32).toString('hex')}`);
    expect(strangers.some((id) => set.has(id))).toBe(false);
    // The same bytes in another spelling are another string, as in a Set.
    expect(set.has(ids[0]!.toUpperCase())).toBe(false);
  });
});
