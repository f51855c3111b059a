import { ExpiryTimer } from '../../../src/engine-host/expiry-timer';

describe('ExpiryTimer', () => {
  beforeEach(() => jest.useFakeTimers({ now: 1_800_000_000_000 }));
  afterEach(() => jest.useRealTimers());

  it('fires at the earliest end, moves to an earlier one, and waits at most a minute for a far one', () => {
    let next: number | undefined = Date.now() + 30 * 86_400_000;
    const fired: number[] = [];
    const timer = new ExpiryTimer(() => next, (now) => fired.push(now));
    timer.arm();
    // Past 24.8 days Node's timer would overflow and fire at once; it looks again after a minute.
    jest.advanceTimersByTime(59_999);
    expect(fired).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(fired).toEqual([Date.now()]);

    // A command rested an order that ends sooner: armed again for it.
    next = Date.now() + 250;
    timer.arm();
    jest.advanceTimersByTime(249);
    expect(fired).toHaveLength(1);
    jest.advanceTimersByTime(1);
    expect(fired).toEqual([expect.any(Number), next]);

    // A later end does not put off the earlier one; nothing to end, nothing armed.
    next = Date.now() + 100;
    timer.arm();
    next = Date.now() + 5_000;
    timer.arm();
    jest.advanceTimersByTime(100);
    expect(fired).toHaveLength(3);
    next = undefined;
    jest.advanceTimersByTime(10_000);
    expect(fired).toHaveLength(4);
    timer.stop();
  });
});
