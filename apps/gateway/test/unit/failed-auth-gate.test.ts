import { FailedAuthGate } from '../../src/rate-limits/failed-auth-gate';

describe('FailedAuthGate', () => {
  it('lets a burst of failures through, then one per interval, per address', () => {
    const gate = new FailedAuthGate(3, 2);
    const t = 1_700_000_000_000;
    for (let i = 0; i < 3; i++) {
      expect(gate.retryAfterSeconds('a', t)).toBe(0);
      gate.failed('a', t);
    }
    expect(gate.retryAfterSeconds('a', t)).toBe(1);
    expect(gate.retryAfterSeconds('b', t)).toBe(0);
    // One failure comes back every 500 ms.
    expect(gate.retryAfterSeconds('a', t + 499)).toBe(1);
    expect(gate.retryAfterSeconds('a', t + 500)).toBe(0);
    gate.failed('a', t + 500);
    expect(gate.retryAfterSeconds('a', t + 500)).toBe(1);
    // A quiet address is forgiven: after the window it has its whole burst again.
    expect(gate.retryAfterSeconds('a', t + 2_000)).toBe(0);
    for (let i = 0; i < 3; i++) gate.failed('a', t + 2_000);
    expect(gate.retryAfterSeconds('a', t + 2_000)).toBe(1);
  });
});
