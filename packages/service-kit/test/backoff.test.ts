import { backoff, backoffMs } from '../src/retry/backoff';

describe('backoff', () => {
  it('doubles the first pause at each attempt up to the cap', () => {
    expect([0, 1, 2, 3, 5, 6, 40].map((attempt) => backoffMs(attempt, 100))).toEqual([100, 200, 400, 800, 3_200, 5_000, 5_000]);
    expect(backoffMs(3, 200, 1_000)).toBe(1_000);
  });

  it('waits that long', async () => {
    const started = Date.now();
    await backoff(1, 15);
    // Timers may fire a millisecond or two early by Date.now().
    expect(Date.now() - started).toBeGreaterThanOrEqual(27);
  });
});
