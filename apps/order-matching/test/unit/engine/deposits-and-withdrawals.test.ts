import { COLLATERAL } from '../../../src/engine/ledger';
import { audit, deposit, merge, split, withdraw } from '../../../src/engine/money';
import { balanceOf, CONDITION, expectConserved, newEngine, NO, traderOf, YES, NOW } from '../../support/engine-fixture';

const alice = traderOf(1);
const bob = traderOf(2);

describe('deposits', () => {
  it('stop before the exchange-wide total leaves the integers a double holds exactly', () => {
    const state = newEngine();
    const max = Number.MAX_SAFE_INTEGER;
    expect(deposit(state, { address: alice.address, amount: max - 1 }, NOW).ok).toBe(true);
    expect(withdraw(state, { address: alice.address, amount: max - 1 }, NOW).ok).toBe(true);
    // Withdrawals do not make room: the audit sums every deposit ever made.
    expect(deposit(state, { address: bob.address, amount: 2 }, NOW)).toMatchObject({ ok: false, status: 409, body: { code: 'conflict' } });
    expect(deposit(state, { address: bob.address, amount: 1 }, NOW).ok).toBe(true);
    expect(audit(state)).toMatchObject({ deposits: max, withdrawals: max - 1, balanced: true });
  });
});

describe('references of deposits and withdrawals', () => {
  it('applies a deposit once, however often its reference comes back', () => {
    const state = newEngine();
    const move = { address: alice.address, amount: 25_000_000, reference: 'bank-transfer-7781' };
    expect(deposit(state, move, NOW)).toEqual({ ok: true, data: { replayed: false } });
    expect(deposit(state, move, NOW)).toEqual({ ok: true, data: { replayed: true } });
    expect(deposit(state, { ...move }, NOW)).toEqual({ ok: true, data: { replayed: true } });
    expect(balanceOf(state, alice, COLLATERAL).available).toBe(25_000_000);
    expect(state.effects.moves).toEqual([{ kind: 'deposit', address: alice.address, conditionId: '', amount: 25_000_000, payout: 0, reference: 'bank-transfer-7781' }]);
    expect(audit(state)).toMatchObject({ deposits: 25_000_000, balanced: true });
  });

  it('refuses a reference already naming another amount or account, and moves nothing', () => {
    const state = newEngine();
    deposit(state, { address: alice.address, amount: 25_000_000, reference: 'tx-1' }, NOW);
    const otherAmount = deposit(state, { address: alice.address, amount: 25_000_001, reference: 'tx-1' }, NOW);
    expect(otherAmount).toMatchObject({ ok: false, status: 409, body: { code: 'conflict' } });
    expect(otherAmount.ok || otherAmount.body.error).toBe(`reference tx-1 already names a deposit of 25 to ${alice.address}`);
    expect(deposit(state, { address: bob.address, amount: 25_000_000, reference: 'tx-1' }, NOW)).toMatchObject({ ok: false, status: 409 });
    expect(balanceOf(state, alice, COLLATERAL).available).toBe(25_000_000);
    expect(balanceOf(state, bob, COLLATERAL).available).toBe(0);
    expect(state.effects.moves).toHaveLength(1);
    expectConserved(state);
  });

  it('keeps deposits and withdrawals apart, and a reference is case-sensitive', () => {
    const state = newEngine();
    deposit(state, { address: alice.address, amount: 10_000_000, reference: 'op-1' }, NOW);
    expect(withdraw(state, { address: alice.address, amount: 4_000_000, reference: 'op-1' }, NOW)).toEqual({ ok: true, data: { replayed: false } });
    expect(withdraw(state, { address: alice.address, amount: 4_000_000, reference: 'op-1' }, NOW)).toEqual({ ok: true, data: { replayed: true } });
    expect(deposit(state, { address: alice.address, amount: 10_000_000, reference: 'OP-1' }, NOW)).toEqual({ ok: true, data: { replayed: false } });
    expect(balanceOf(state, alice, COLLATERAL).available).toBe(16_000_000);
    expect(audit(state)).toMatchObject({ deposits: 20_000_000, withdrawals: 4_000_000, balanced: true });
  });

  it('leaves the reference of a refused withdrawal free for a later attempt', () => {
    const state = newEngine();
    deposit(state, { address: bob.address, amount: 3_000_000 }, NOW);
    const first = withdraw(state, { address: bob.address, amount: 5_000_000, reference: 'payout-9' }, NOW);
    expect(first).toMatchObject({ ok: false, body: { code: 'insufficient_balance' } });
    expect(state.moneyReferences.get('withdrawal', 'payout-9', bob.address)).toBeUndefined();
    deposit(state, { address: bob.address, amount: 2_000_000 }, NOW);
    expect(withdraw(state, { address: bob.address, amount: 5_000_000, reference: 'payout-9' }, NOW)).toEqual({ ok: true, data: { replayed: false } });
    expect(balanceOf(state, bob, COLLATERAL).available).toBe(0);
    expectConserved(state);
  });

  it('moves money every time when no reference is given', () => {
    const state = newEngine();
    const move = { address: alice.address, amount: 1_000_000 };
    deposit(state, move, NOW);
    deposit(state, move, NOW);
    expect(balanceOf(state, alice, COLLATERAL).available).toBe(2_000_000);
    expect(state.moneyReferences.size).toBe(0);
    expectConserved(state);
  });
});

describe("a trader's splits and merges under a reference", () => {
  it('apply once; a retry answers replayed, another market or amount is a conflict, and each trader names its own', () => {
    const state = newEngine();
    deposit(state, { address: alice.address, amount: 10_000_000 }, NOW);
    deposit(state, { address: bob.address, amount: 10_000_000 }, NOW);
    expect(split(state, alice.address, CONDITION, 4_000_000, NOW, 'split-1')).toEqual({ ok: true, data: { replayed: false } });
    // The answer was lost: the same split again (the condition id in another case is the same market).
    expect(split(state, alice.address, CONDITION.toUpperCase().replace('0X', '0x'), 4_000_000, NOW, 'split-1')).toEqual({ ok: true, data: { replayed: true } });
    expect(split(state, alice.address, CONDITION, 5_000_000, NOW, 'split-1')).toMatchObject({
      ok: false,
      status: 409,
      body: { code: 'conflict', error: `reference split-1 already names a split of 4 of market ${CONDITION}` },
    });
    // Bob's "split-1" is his own; a merge is another name space.
    expect(split(state, bob.address, CONDITION, 1_000_000, NOW, 'split-1')).toEqual({ ok: true, data: { replayed: false } });
    expect(merge(state, alice.address, CONDITION, 3_000_000, NOW, 'split-1')).toEqual({ ok: true, data: { replayed: false } });
    expect(merge(state, alice.address, CONDITION, 3_000_000, NOW, 'split-1')).toEqual({ ok: true, data: { replayed: true } });
    // A refused merge records nothing: its reference stays free.
    expect(merge(state, alice.address, CONDITION, 2_000_000, NOW, 'merge-2')).toMatchObject({ ok: false, body: { code: 'insufficient_balance' } });
    expect(merge(state, alice.address, CONDITION, 1_000_000, NOW, 'merge-2')).toEqual({ ok: true, data: { replayed: false } });
    expect(balanceOf(state, alice, COLLATERAL).available).toBe(10_000_000);
    for (const token of [YES, NO]) expect(balanceOf(state, alice, token).available).toBe(0);
    expect(balanceOf(state, bob, COLLATERAL).available).toBe(9_000_000);
    expect(state.effects.moves.filter((m) => m.reference !== undefined).map((m) => `${m.kind}:${m.address === bob.address ? 'bob' : 'alice'}:${m.reference}`)).toEqual([
      'split:alice:split-1',
      'split:bob:split-1',
      'merge:alice:split-1',
      'merge:alice:merge-2',
    ]);
    expectConserved(state);
  });
});
