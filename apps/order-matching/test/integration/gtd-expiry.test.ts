import { until } from '@exchange/testing';
import { COLLATERAL } from '../../src/engine/ledger';
import { anOrder, traderOf } from '../support/engine-fixture';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

const CONDITION = `0x${'ed'.repeat(32)}`;
const YES = '701';
const alice = traderOf(1);

/**
 * How late past its end an order may be seen gone here: the engine's timer fires at the end (to the
 * millisecond, expiry-timer.test.ts on a fake clock), but this machine may be loaded, and the test sees
 * it only at its next look.
 */
const LATE_MS = 1_000;

/** GTD orders end at their moment on the real engine, with no command to run the check for them. */
describe('GTD expiry, on real PostgreSQL and NATS', () => {
  let om: MatchingUnderTest;

  beforeAll(async () => {
    om = await startMatching();
    await om.publishMarket(aMarketSnapshot(CONDITION, [YES, '702']));
    await om.data('matching.admin.deposit.v1', { address: alice.address, amount: '100' });
  });
  afterAll(() => om.stop());

  /** A resting GTD bid that ends at `end` (ms, a whole second): its expiration is 60 s later (gtd-expiration.ts). */
  const restUntil = async (end: number, price: string) => {
    const order = anOrder(alice, { token: YES, side: 'BUY', price, size: '5', type: 'GTD', expiration: end / 1000 + 60 });
    expect(await om.place(alice, order)).toMatchObject({ success: true, status: 'live' });
    return order.orderId;
  };
  /** When the test saw the order gone, waiting at most until a while past `end`. */
  const goneAt = (id: string, end: number) =>
    until(async () => (om.engine().state.orders.has(id) ? undefined : Date.now()), Math.max(0, end - Date.now()) + LATE_MS + 5_000, `order ${id} expiring`);

  it('ends an order at the second it is due, releasing its reservation then, with no command to run it', async () => {
    const reserved = () => om.engine().state.ledger.get(alice.address.toLowerCase(), COLLATERAL).reserved;
    // Two orders due in two different seconds, each a few seconds on: placing it (and the audit after) must not outlast it.
    for (const offset of [3, 4]) {
      const end = (Math.floor(Date.now() / 1000) + offset) * 1000;
      const id = await restUntil(end, '0.20');
      expect(reserved()).toBe(1_000_000);
      const gone = await goneAt(id, end);
      expect(reserved()).toBe(0);
      // Never before its end.
      expect(gone).toBeGreaterThanOrEqual(end);
      expect(gone - end).toBeLessThan(LATE_MS);
      await om.expectConserved();
    }
  });

  it('ends at its moment an order the engine loaded at start', async () => {
    // 12 s on: the restart, slow on a loaded machine, must be over before the order ends.
    const end = (Math.floor(Date.now() / 1000) + 12) * 1000;
    const id = await restUntil(end, '0.30');
    await om.restart();
    expect(Date.now()).toBeLessThan(end);
    expect(om.engine().state.orders.has(id)).toBe(true);
    const gone = await goneAt(id, end);
    expect(gone).toBeGreaterThanOrEqual(end);
    expect(gone - end).toBeLessThan(LATE_MS);
    await om.expectConserved();
  }, 60_000);
});
