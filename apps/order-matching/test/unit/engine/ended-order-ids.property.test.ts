import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { EndedOrderIds } from '../../../src/engine/ended-order-ids';

const hashId = fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => `0x${Buffer.from(bytes).toString('hex')}`);
/** Ids that differ in a late word only, so that they share a hash slot and probe past each other. */
const collidingId = fc.nat({ max: 15 }).map((n) => `0x${'ab'.repeat(28)}${n.toString(16).padStart(8, '0')}`);
const otherId = fc.oneof(fc.string(), hashId.map((id) => id.toUpperCase()), hashId.map((id) => id.slice(0, 40)));

describe('EndedOrderIds (ended order ids and their seqs in typed arrays)', () => {
  it('answers as a Map of the same strings would, whatever is added and asked', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ add: fc.boolean(), id: fc.oneof(hashId, collidingId, otherId), seq: fc.nat() }), { maxLength: 300 }),
        (steps) => {
          const ids = new EndedOrderIds();
          const model = new Map<string, number>();
          for (const { add, id, seq } of steps) {
            if (add) {
              ids.add(id, seq);
              if (!model.has(id)) model.set(id, seq);
            }
            expect(ids.has(id)).toBe(model.has(id));
            expect(ids.seqOf(id)).toBe(model.get(id));
            expect(ids.size).toBe(model.size);
          }
          for (const [id, seq] of model) expect(ids.seqOf(id)).toBe(seq);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('answers the same after room was reserved up front as after growing step by step', () => {
    const ids = Array.from({ length: 30_000 }, () => `0x${randomBytes(32).toString('hex')}`);
    const reserved = new EndedOrderIds();
    reserved.reserve(ids.length);
    ids.forEach((id, i) => reserved.add(id, i + 1));
    // Reserving less than is there, or again, changes nothing.
    reserved.reserve(10);
    reserved.reserve(ids.length);
    ids.forEach((id, i) => reserved.add(id, -i));
    expect(reserved.size).toBe(ids.length);
    expect(ids.every((id, i) => reserved.seqOf(id) === i + 1)).toBe(true);
    expect(reserved.has(`0x${randomBytes(32).toString('hex')}`)).toBe(false);
  });

  it('keeps every id with its seq through several growths of its tables, and no others', () => {
    const ended = new EndedOrderIds();
    const ids = Array.from({ length: 40_000 }, () => `0x${randomBytes(32).toString('hex')}`);
    ids.forEach((id, i) => ended.add(id, 2 ** 40 + i));
    ids.forEach((id) => ended.add(id, 0));
    expect(ended.size).toBe(ids.length);
    expect(ids.every((id, i) => ended.seqOf(id) === 2 ** 40 + i)).toBe(true);
    const strangers = Array.from({ length: 10_000 }, () => `0x${randomBytes(32).toString('hex')}`);
    expect(strangers.some((id) => ended.has(id))).toBe(false);
    // The same bytes in another spelling are another string, as in a Map.
    expect(ended.has(ids[0]!.toUpperCase())).toBe(false);
  });
});
