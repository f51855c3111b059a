import { timeOrderedHash, uuidV7 } from '../../../src/journal/time-ordered-ids';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisOf = (hex: string) => parseInt(hex.replace(/^0x/, '').replace(/-/g, '').slice(0, 12), 16);

describe('time-ordered ids', () => {
  const start = Date.UTC(2026, 10, 25, 12);
  const times = Array.from({ length: 2_000 }, (_, i) => start + i * 7 + (i % 3));

  it('makes version 7 UUIDs carrying their millisecond, which sort in the order of their times', () => {
    const ids = times.map((t) => uuidV7(t));
    expect(ids.every((id) => UUID_V7.test(id))).toBe(true);
    expect(ids.map(millisOf)).toEqual(times);
    expect([...ids].sort()).toEqual(ids);
  });

  it('makes distinct UUIDs within one millisecond', () => {
    const ids = Array.from({ length: 10_000 }, () => uuidV7(start));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => millisOf(id) === start)).toBe(true);
  });

  it('makes batch ids shaped like transaction hashes, sorted by time and distinct', () => {
    const ids = times.map((t) => timeOrderedHash(t));
    expect(ids.every((id) => /^0x[0-9a-f]{64}$/.test(id))).toBe(true);
    expect(ids.map(millisOf)).toEqual(times);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(Array.from({ length: 10_000 }, () => timeOrderedHash(start))).size).toBe(10_000);
  });
});
