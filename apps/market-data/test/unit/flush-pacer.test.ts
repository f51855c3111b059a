import { eventually, sleep } from '@exchange/testing';
import { FlushPacer } from '../../src/books/flush-pacer';

/** A flush that records when it started and takes `ms`; `inFlight` catches overlapping runs. */
function recorder(ms = 0) {
  const starts: number[] = [];
  let inFlight = 0;
  let overlapped = false;
  const flush = async () => {
    starts.push(Date.now());
    if (++inFlight > 1) overlapped = true;
    await sleep(ms);
    inFlight--;
  };
  return { flush, starts, overlapped: () => overlapped };
}

describe('FlushPacer', () => {
  it('runs a lone ask at once', async () => {
    const r = recorder();
    const pacer = new FlushPacer(r.flush, 50);
    const asked = Date.now();
    pacer.request();
    expect(r.starts).toHaveLength(1);
    expect(r.starts[0]! - asked).toBeLessThan(5);
    await pacer.drain();
  });

  it('serves a stream of asks with one flush per interval, never two at once', async () => {
    const r = recorder(2);
    const pacer = new FlushPacer(r.flush, 20);
    const until = Date.now() + 200;
    let asks = 0;
    while (Date.now() < until) {
      pacer.request();
      asks++;
      await sleep(1);
    }
    const paced = [...r.starts];
    await pacer.drain();
    expect(asks).toBeGreaterThan(50);
    // 200 ms at one start per 20 ms: about 10 flushes, then drain serves the last asks at once.
    expect(paced.length).toBeGreaterThanOrEqual(5);
    expect(paced.length).toBeLessThanOrEqual(12);
    // Node arms timers against libuv's loop time, which can trail Date.now() by a millisecond or two:
    // a timed start may come that much early by Date.now() (seen: 18 ms apart).
    for (let i = 1; i < paced.length; i++) expect(paced[i]! - paced[i - 1]!).toBeGreaterThanOrEqual(17);
    expect(r.starts.length).toBeLessThanOrEqual(paced.length + 1);
    expect(r.overlapped()).toBe(false);
  });

  it('runs an ask made during a flush after that flush, within the interval', async () => {
    const r = recorder(10);
    const pacer = new FlushPacer(r.flush, 30);
    pacer.request();
    pacer.request();
    expect(r.starts).toHaveLength(1);
    await eventually(() => r.starts.length === 2, 'the second flush');
    expect(r.starts[1]! - r.starts[0]!).toBeGreaterThanOrEqual(29);
    // Run by the pacer's own timer, not by a later ask (there is none): well within 10 intervals even
    // on a loaded machine.
    expect(r.starts[1]! - r.starts[0]!).toBeLessThan(300);
    await sleep(100);
    expect(r.starts).toHaveLength(2);
    expect(r.overlapped()).toBe(false);
  });

  it('drain runs a waiting ask without waiting for the interval', async () => {
    const r = recorder();
    const pacer = new FlushPacer(r.flush, 10_000);
    pacer.request();
    await sleep(1);
    pacer.request();
    expect(r.starts).toHaveLength(1);
    const before = Date.now();
    await pacer.drain();
    expect(r.starts).toHaveLength(2);
    // Not held for the 10 s interval: a tenth of it leaves room for a loaded machine.
    expect(Date.now() - before).toBeLessThan(1_000);
  });
});
