import { connect, JSONCodec, type Msg, type NatsConnection } from 'nats';
import { fail, type OrderPlacement, type OrderResult } from '@exchange/contracts';
import { answeredByNobody, RpcClient } from '@exchange/service-kit';
import type { ApiError } from '../../src/http/api-error';
import { sleep, TEST_NATS_URL, testPrefix, until } from '@exchange/testing';
import { PlaceBatcher } from '../../src/trading/place-batcher';

const codec = JSONCodec();

interface Held {
  placements: OrderPlacement[];
  /** When the engine stand-in received it (performance.now()). */
  at: number;
  answer(reply: unknown): void;
}

/**
 * PlaceBatcher against a real NATS server and an engine stand-in subscribed on the placement subject,
 * which records each request and answers only when the test says so: the test sees what the gateway
 * sends while its earlier requests wait.
 */
describe('PlaceBatcher', () => {
  let nc: NatsConnection;
  let engine: NatsConnection;
  let prefix: string;
  let held: Held[];

  beforeEach(async () => {
    prefix = testPrefix('batcher');
    held = [];
    nc = await connect({ servers: TEST_NATS_URL });
    engine = await connect({ servers: TEST_NATS_URL });
    engine.subscribe(`${prefix}.matching.orders.place.v1`, {
      callback: (_error, msg: Msg) => {
        const packet = codec.decode(msg.data) as { id: string; data: { placements: OrderPlacement[] } };
        held.push({
          placements: packet.data.placements,
          at: performance.now(),
          answer: (reply) => msg.respond(codec.encode({ id: packet.id, response: reply, isDisposed: true })),
        });
      },
    });
    await engine.flush();
  });

  afterEach(async () => {
    await nc.close();
    await engine.close();
  });

  const batcher = (inFlight: number, intervalMs = 0, stallMs = 60_000, timeoutMs = 5_000) =>
    new PlaceBatcher(new RpcClient(nc, prefix, timeoutMs), {
      PLACE_REQUESTS_IN_FLIGHT: inFlight,
      PLACE_REQUEST_INTERVAL_MS: intervalMs,
      PLACE_REQUEST_STALL_MS: stallMs,
    });

  /** A placement whose one order id ends in `n` (the batcher does not look inside). */
  const placement = (n: number): OrderPlacement =>
    ({ caller: { apiKey: 'k', address: `0x${'1'.repeat(40)}` }, orders: [{ orderId: `0x${String(n).padStart(64, '0')}` }] }) as unknown as OrderPlacement;

  /** The engine's answer to a request: one accepted result per placement, naming its order. */
  const accepted = (placements: OrderPlacement[]) => ({
    ok: true,
    data: placements.map((p) => [{ success: true, orderID: p.orders[0]!.orderId } as OrderResult]),
  });

  /** Waits until the engine stand-in holds `count` requests (however loaded the machine), and answers how many it holds. */
  const requestsSeen = async (count: number) => {
    await until(async () => (held.length >= count ? true : undefined), 10_000, `${count} requests at the engine`);
    return held.length;
  };

  /** How many requests the engine holds after a while: for what must not have been sent (yet). */
  const requestsAfterAWhile = async () => {
    await sleep(300);
    return held.length;
  };

  const orderIds = (request: Held) => request.placements.map((p) => p.orders[0]!.orderId);
  const idsOf = (...ns: number[]) => ns.map((n) => placement(n).orders[0]!.orderId);

  it('sends what arrives while a request waits in one next request, and answers each placement with its own results', async () => {
    const b = batcher(1);
    const first = b.place(placement(1));
    expect(await requestsSeen(1)).toBe(1);
    const later = [2, 3, 4, 5].map((n) => b.place(placement(n)));
    // The engine has not answered the first request: nothing else left.
    expect(await requestsAfterAWhile()).toBe(1);

    held[0]!.answer(accepted(held[0]!.placements));
    expect((await first)[0]!.orderID).toBe(placement(1).orders[0]!.orderId);
    expect(await requestsSeen(2)).toBe(2);
    // All four in the one next request: none had left on its own.
    expect(orderIds(held[1]!)).toEqual(idsOf(2, 3, 4, 5));

    held[1]!.answer(accepted(held[1]!.placements));
    const results = await Promise.all(later);
    expect(results.map((r) => r[0]!.orderID)).toEqual([2, 3, 4, 5].map((n) => placement(n).orders[0]!.orderId));
  });

  it('keeps up to the configured number of requests waiting at once', async () => {
    const b = batcher(2);
    const first = b.place(placement(1));
    expect(await requestsSeen(1)).toBe(1);
    const second = b.place(placement(2));
    expect(await requestsSeen(2)).toBe(2);
    const third = b.place(placement(3));
    expect(await requestsAfterAWhile()).toBe(2);

    held[1]!.answer(accepted(held[1]!.placements));
    await second;
    expect(await requestsSeen(3)).toBe(3);
    expect(orderIds(held[2]!)).toEqual(idsOf(3));
    held[0]!.answer(accepted(held[0]!.placements));
    held[2]!.answer(accepted(held[2]!.placements));
    expect((await first)[0]!.success).toBe(true);
    expect((await third)[0]!.orderID).toBe(placement(3).orders[0]!.orderId);
  });

  it('starts a request no sooner than the interval after the previous one, with what arrived meanwhile', async () => {
    // Long enough that a loaded machine's delays cannot pass for it (it was 200 ms).
    const INTERVAL = 2_000;
    const b = batcher(1, INTERVAL);
    const started = performance.now();
    const first = b.place(placement(1));
    // Nothing was sent before: the first placement does not wait for an interval.
    expect(await requestsSeen(1)).toBe(1);
    expect(held[0]!.at - started).toBeLessThan(INTERVAL);
    held[0]!.answer(accepted(held[0]!.placements));
    await first;

    const placedAt = performance.now();
    const later = [2, 3].map((n) => b.place(placement(n)));
    expect(await requestsSeen(2)).toBe(2);
    // Held back until the interval from the first request was up (less the few milliseconds a timer may
    // round off), though the engine had answered long before, and both in it.
    expect(held[1]!.at - started).toBeGreaterThanOrEqual(INTERVAL - 5);
    expect(held[1]!.at).toBeGreaterThan(placedAt);
    expect(orderIds(held[1]!)).toEqual(idsOf(2, 3));
    held[1]!.answer(accepted(held[1]!.placements));
    expect((await Promise.all(later)).map((r) => r[0]!.success)).toEqual([true, true]);
    expect(held).toHaveLength(2);
  });

  it('fails every placement of a refused request with its error and goes on with the next', async () => {
    const b = batcher(1);
    const first = b.place(placement(1));
    expect(await requestsSeen(1)).toBe(1);
    const second = b.place(placement(2));
    const third = b.place(placement(3));

    const refused = fail('service_unavailable', 'engine restarting', 1);
    held[0]!.answer(refused);
    await expect(first).rejects.toMatchObject({ body: refused.body, status: 503 });
    expect(await requestsSeen(2)).toBe(2);
    expect(held[1]!.placements).toHaveLength(2);
    held[1]!.answer(refused);
    await expect(second).rejects.toMatchObject({ body: refused.body });
    await expect(third).rejects.toMatchObject({ body: refused.body });
  });

  it('lets a request unanswered for the stall time stop holding the next one back', async () => {
    // Ten times what it was (300 ms), so that the sleeps below cannot race it on a loaded machine.
    const STALL = 3_000;
    const b = batcher(1, 0, STALL);
    const firstPlacedAt = performance.now();
    const first = b.place(placement(1));
    expect(await requestsSeen(1)).toBe(1);
    const second = b.place(placement(2));
    expect(await requestsAfterAWhile()).toBe(1);
    expect(await requestsSeen(2)).toBe(2);
    // Sent once the first had waited the stall time, and not answered.
    expect(held[1]!.at - firstPlacedAt).toBeGreaterThanOrEqual(STALL - 5);
    expect(orderIds(held[1]!)).toEqual(idsOf(2));

    // The second request is young: the third placement waits for it, not for the stalled first one.
    const third = b.place(placement(3));
    expect(await requestsAfterAWhile()).toBe(2);
    const answeredAt = performance.now();
    held[1]!.answer(accepted(held[1]!.placements));
    expect((await second)[0]!.orderID).toBe(placement(2).orders[0]!.orderId);
    expect(await requestsSeen(3)).toBe(3);
    // Sent because the second was answered, not because it stalled in its turn.
    expect(held[2]!.at).toBeGreaterThan(answeredAt);
    expect(held[2]!.at - held[1]!.at).toBeLessThan(STALL);
    expect(orderIds(held[2]!)).toEqual(idsOf(3));

    held[0]!.answer(accepted(held[0]!.placements));
    held[2]!.answer(accepted(held[2]!.placements));
    expect((await first)[0]!.success).toBe(true);
    expect((await third)[0]!.success).toBe(true);
  });

  it('answers placements sent while the engine is gone at once, not after the lost request times out', async () => {
    // The lost request's timeout is ten times its stall time: placements after it must be answered in
    // between, as nobody answering, whatever the machine's load.
    const b = batcher(1, 0, 500, 5_000);
    const settled: string[] = [];
    const outcome = (name: string, promise: Promise<unknown>) =>
      promise.then(
        () => {
          settled.push(name);
          return null;
        },
        (error: ApiError) => {
          settled.push(name);
          return error;
        },
      );
    const first = outcome('first', b.place(placement(1)));
    expect(await requestsSeen(1)).toBe(1);
    // The engine dies holding the first request.
    await engine.close();
    const second = await outcome('second', b.place(placement(2)));
    expect(second).not.toBeNull();
    expect(answeredByNobody(second!.failure)).toBe(true);
    // Once one request found nobody, the next leaves at once and finds nobody too.
    const third = await outcome('third', b.place(placement(3)));
    expect(third).toMatchObject({ body: { code: 'service_unavailable' } });
    expect(answeredByNobody(third!.failure)).toBe(true);
    expect(await first).toMatchObject({ body: { code: 'service_unavailable', error: expect.stringContaining('timed out') } });
    // Both answered before the lost request timed out.
    expect(settled).toEqual(['second', 'third', 'first']);
  });
});
