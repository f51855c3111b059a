import fc from 'fast-check';
import { ExpiryQueue, type Expiry } from '../../../src/engine/expiry-queue';

const byExpirationThenSeq = (a: Expiry, b: Expiry) => a.expiration - b.expiration || a.seq - b.seq;

function drain(queue: ExpiryQueue, second = Number.MAX_SAFE_INTEGER): Expiry[] {
  const out: Expiry[] = [];
  for (let next = queue.popDue(second); next; next = queue.popDue(second)) out.push(next);
  return out;
}

describe('the expiry queue', () => {
  it('gives back only what is due, earliest expiration first and seq first among equals', () => {
    const queue = new ExpiryQueue();
    queue.push(130, 1);
    queue.push(120, 3);
    queue.push(120, 2);
    queue.push(200, 4);
    expect(queue.popDue(119)).toBeUndefined();
    expect(drain(queue, 130)).toEqual([
      { expiration: 120, seq: 2 },
      { expiration: 120, seq: 3 },
      { expiration: 130, seq: 1 },
    ]);
    expect(queue.size).toBe(1);
    expect(drain(queue)).toEqual([{ expiration: 200, seq: 4 }]);
    expect(queue.popDue(Number.MAX_SAFE_INTEGER)).toBeUndefined();
  });

  it('keeps (expiration, seq) order over random pushes, pops and retains', () => {
    const step = fc.oneof(
      fc.record({ kind: fc.constant('push' as const), expiration: fc.integer({ min: 0, max: 50 }) }),
      fc.record({ kind: fc.constant('pop' as const), second: fc.integer({ min: 0, max: 50 }) }),
      fc.record({ kind: fc.constant('retain' as const), modulo: fc.integer({ min: 2, max: 5 }) }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 300 }), (steps) => {
        const queue = new ExpiryQueue();
        let reference: Expiry[] = [];
        let seq = 0;
        for (const s of steps) {
          if (s.kind === 'push') {
            queue.push(s.expiration, ++seq);
            reference.push({ expiration: s.expiration, seq });
          } else if (s.kind === 'pop') {
            reference.sort(byExpirationThenSeq);
            const due = reference.filter((e) => e.expiration <= s.second);
            reference = reference.slice(due.length);
            expect(drain(queue, s.second)).toEqual(due);
          } else {
            const keep = (e: Expiry) => e.seq % s.modulo !== 0;
            queue.retain(keep);
            reference = reference.filter(keep);
          }
          expect(queue.size).toBe(reference.length);
        }
        expect(drain(queue)).toEqual(reference.sort(byExpirationThenSeq));
      }),
      { numRuns: 200 },
    );
  });
});
