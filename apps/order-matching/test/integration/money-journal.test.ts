import { Pool } from 'pg';
import { sleep, until } from '@exchange/testing';
import { audit } from '../../src/engine/money';
import { traderOf } from '../support/engine-fixture';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

const alice = traderOf(1);

describe('deposits and withdrawals, journaled and listed for the operator', () => {
  let om: MatchingUnderTest;

  beforeAll(async () => {
    om = await startMatching();
  });
  afterAll(() => om.stop());

  it('applies concurrent retries once, and still recognizes the reference after a restart', async () => {
    const deposit = { address: alice.address, amount: '12.5', reference: '0xfeed-transfer-1' };
    const answers = await Promise.all(Array.from({ length: 10 }, () => om.data('matching.admin.deposit.v1', deposit)));
    expect(answers.filter((a) => !a.replayed)).toHaveLength(1);
    expect(new Set(answers.map((a) => a.collateral.available))).toEqual(new Set(['12.5']));
    expect(answers[0]).toMatchObject({ reference: '0xfeed-transfer-1' });
    await om.data('matching.admin.withdraw.v1', { address: alice.address, amount: '2.5', reference: 'payout-1' });

    await om.restart();

    expect(await om.data('matching.admin.deposit.v1', deposit)).toMatchObject({ replayed: true, collateral: { available: '10' } });
    expect(await om.data('matching.admin.withdraw.v1', { address: alice.address, amount: '2.5', reference: 'payout-1' })).toMatchObject({
      replayed: true,
      collateral: { available: '10' },
    });
    expect(await om.request('matching.admin.deposit.v1', { ...deposit, amount: '12.6' })).toMatchObject({ ok: false, status: 409, body: { code: 'conflict' } });
    expect(audit(om.engine().state)).toMatchObject({ deposits: 12_500_000, withdrawals: 2_500_000, balanced: true });

    const listed = await om.data('matching.admin.money-moves.v1', { address: alice.address });
    expect(listed.map((m) => [m.kind, m.amount, m.reference])).toEqual([
      ['withdrawal', '2.5', 'payout-1'],
      ['deposit', '12.5', '0xfeed-transfer-1'],
    ]);
    expect(await om.data('matching.admin.money-moves.v1', { kind: 'deposit', reference: 'payout-1' })).toEqual([]);
    expect(await om.data('matching.admin.account.v1', { address: alice.address })).toMatchObject({ collateral: { available: '10', reserved: '0' } });

    const pool = new Pool({ connectionString: om.databaseUrl });
    const rows = await pool.query('SELECT kind, reference, amount::text FROM money_moves ORDER BY id');
    await pool.end();
    expect(rows.rows).toEqual([
      { kind: 'deposit', reference: '0xfeed-transfer-1', amount: '12500000' },
      { kind: 'withdrawal', reference: 'payout-1', amount: '2500000' },
    ]);
  });

  it('takes no command while it restarts before its state is loaded', async () => {
    const bob = traderOf(2);
    await om.data('matching.admin.deposit.v1', { address: bob.address, amount: '100' });
    const restarting = om.restart();
    // Deposits sent all through the restart, each retried until answered: each applies once, on top of
    // the balance the journal holds (served before the engine loaded, one wrote 1 over the 100).
    const answers = await Promise.all(
      Array.from({ length: 20 }, async (_, i) => {
        await sleep(i * 50);
        return until(async () => {
          const reply = await om.request('matching.admin.deposit.v1', { address: bob.address, amount: '1', reference: `during-restart-${i}` });
          return reply.ok ? reply.data : undefined;
        }, 20_000, `deposit ${i} answered`);
      }),
    );
    await restarting;
    expect(answers.every((a) => !a.replayed)).toBe(true);
    expect(await om.data('matching.admin.account.v1', { address: bob.address })).toMatchObject({ collateral: { available: '120' } });
    await om.expectConserved();
  });

  it('lists the journal newest first by id, also across a digit more (99 before 100)', async () => {
    const carol = traderOf(3);
    for (let i = 0; i < 12; i++) await om.data('matching.admin.deposit.v1', { address: carol.address, amount: '1' });
    const ids = (await om.data('matching.admin.money-moves.v1', { limit: 500 })).map((m) => Number(m.id));
    expect(ids.length).toBeGreaterThanOrEqual(12);
    expect(Math.max(...ids)).toBeGreaterThanOrEqual(10);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('switches post-only mode on for a while and off again, off taking a retry of 0', async () => {
    expect(await om.data('matching.admin.post-only.v1', { enabled: true, retryAfterSeconds: 30 })).toMatchObject({ enabled: true, until: expect.any(String) });
    expect(om.engine().state.postOnlyUntil).toBeGreaterThan(Date.now() + 29_000);
    expect(await om.request('matching.admin.post-only.v1', { enabled: true, retryAfterSeconds: 0 })).toMatchObject({ ok: false, status: 400 });
    expect(await om.data('matching.admin.post-only.v1', { enabled: false, retryAfterSeconds: 0 })).toEqual({ enabled: false, until: null });
    expect(om.engine().state.postOnlyUntil).toBe(0);
  });

  it('refuses a malformed reference before anything moves', async () => {
    const deposits = om.engine().state.totals.deposits;
    const balance = await om.data('matching.admin.account.v1', { address: alice.address });
    for (const reference of ['', 'has space', 'x'.repeat(129), 'tab\there', 'é', 42]) {
      expect(await om.request('matching.admin.deposit.v1', { address: alice.address, amount: '1', reference })).toMatchObject({
        ok: false,
        status: 400,
        body: { code: 'invalid_request' },
      });
    }
    expect(om.engine().state.totals.deposits).toBe(deposits);
    expect(await om.data('matching.admin.account.v1', { address: alice.address })).toEqual(balance);
  });

  it("lists an account's positions in token id order, the same after a restart", async () => {
    const dave = traderOf(4);
    await om.publishMarket(aMarketSnapshot(`0x${'a1'.repeat(32)}`, ['1000', '1001']));
    await om.publishMarket(aMarketSnapshot(`0x${'a2'.repeat(32)}`, ['900', '901']));
    await om.data('matching.admin.deposit.v1', { address: dave.address, amount: '10' });
    await om.data('matching.split.v1', { caller: dave, conditionId: `0x${'a1'.repeat(32)}`, amount: '2' });
    await om.data('matching.split.v1', { caller: dave, conditionId: `0x${'a2'.repeat(32)}`, amount: '1' });
    const tokens = async () => (await om.data('matching.admin.account.v1', { address: dave.address })).positions.map((p) => p.token_id);
    expect(await tokens()).toEqual(['900', '901', '1000', '1001']);
    await om.restart();
    expect(await tokens()).toEqual(['900', '901', '1000', '1001']);
  });
});
