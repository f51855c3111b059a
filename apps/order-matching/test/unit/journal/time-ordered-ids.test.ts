import { timeOrderedHash, UuidV7Source } from '../../../src/journal/time-ordered-ids';

const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const millisOf = (hex: string) => parseInt(hex.replace(/^0x/, '').replace(/-/g, '').slice(0, 12), 16);

describe('time-ordered ids', () => {
  const start = Date.UTC(2026, 10, 25, 12);
  const times = Array.from({ length: 2_000 }, (_, i) => start + i * 7 + (i % 3));

  it('makes version 7 UUIDs carrying their millisecond, which sort in the order of their times', () => {
    const source = new UuidV7Source();
    const ids = times.map((t) => source.next(t));
    expect(ids.every((id) => UUID_V7.test(id))).toBe(true);
    expect(ids.map(millisOf)).toEqual(times);
    expect([...ids].sort()).toEqual(ids);
  });

  it('makes distinct UUIDs within one millisecond, in the order they were made', () => {
    const source = new UuidV7Source();
    const ids = Array.from({ length: 10_000 }, () => source.next(start));
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.every((id) => UUID_V7.test(id) && millisOf(id) === start)).toBe(true);
    expect([...ids].sort()).toEqual(ids);
  });

  it('keeps the order when the clock steps back, and starts at random in each millisecond', () => {
    const source = new UuidV7Source();
    const ids = [source.next(start + 10), source.next(start + 5), source.next(start + 10), source.next(start + 11)];
    expect([...ids].sort()).toEqual(ids);
    expect(ids.map(millisOf)).toEqual([start + 10, start + 10, start + 10, start + 11]);
    // Two sources in one millisecond do not make the same ids (72 random bits each at the start).
    expect(new UuidV7Source().next(start)).not.toBe(new UuidV7Source().next(start));
  });

  it('makes batch ids shaped like transaction hashes, sorted by time and distinct', () => {
    const ids = times.map((t) => timeOrderedHash(t));
    expect(ids.every((id) => /^0x[0-9a-f]{64}$/.test(id))).toBe(true);
    expect(ids.map(millisOf)).toEqual(times);
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(Array.from({ length: 10_000 }, () => timeOrderedHash(start))).size).toBe(10_000);
  });
});
