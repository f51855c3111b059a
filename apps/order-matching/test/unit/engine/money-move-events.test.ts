import type { MatchingEvent } from '@exchange/contracts';
import { deposit, merge, redeem, resolve, split, withdraw } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import { anOrder, CONDITION, newEngine, NO, NOW, traderOf, YES } from '../../support/engine-fixture';

const alice = traderOf(1);
const bob = traderOf(2);

const moveEvents = (events: MatchingEvent[]) => events.flatMap((e) => (e.type === 'money-move' ? [e.data] : []));

describe('money-move events (stream MATCHING)', () => {
  it('publishes every deposit, withdrawal, split, merge and redemption with its amounts and time', () => {
    const state = newEngine();
    deposit(state, { address: alice.address, amount: 100_000_000, reference: 'wire-1' }, NOW);
    withdraw(state, { address: alice.address, amount: 10_000_000 }, NOW + 1);
    split(state, alice.address, CONDITION, 30_000_000, NOW + 2, 'split-1');
    merge(state, alice.address, CONDITION, 5_000_000, NOW + 3);
    resolve(state, CONDITION, 1, NOW + 4);
    redeem(state, alice.address, CONDITION, NOW + 5);
    expect(moveEvents(state.takeEffects().events)).toEqual([
      { kind: 'deposit', address: alice.address, conditionId: '', amount: '100000000', payout: '0', shares: [], reference: 'wire-1', timestamp: NOW },
      { kind: 'withdrawal', address: alice.address, conditionId: '', amount: '10000000', payout: '0', shares: [], timestamp: NOW + 1 },
      { kind: 'split', address: alice.address, conditionId: CONDITION, amount: '30000000', payout: '0', shares: [], reference: 'split-1', timestamp: NOW + 2 },
      { kind: 'merge', address: alice.address, conditionId: CONDITION, amount: '5000000', payout: '0', shares: [], timestamp: NOW + 3 },
      // 25 of each outcome left; No won: 25 paid out.
      {
        kind: 'redeem',
        address: alice.address,
        conditionId: CONDITION,
        amount: '50000000',
        payout: '25000000',
        shares: [
          { tokenId: YES, size: '25000000' },
          { tokenId: NO, size: '25000000' },
        ],
        timestamp: NOW + 5,
      },
    ]);
  });

  it('publishes nothing for a refused move or a retry of one already applied', () => {
    const state = newEngine();
    deposit(state, { address: bob.address, amount: 10_000_000, reference: 'wire-2' }, NOW);
    split(state, bob.address, CONDITION, 4_000_000, NOW, 'split-2');
    state.takeEffects();
    expect(deposit(state, { address: bob.address, amount: 10_000_000, reference: 'wire-2' }, NOW)).toEqual({ ok: true, data: { replayed: true } });
    expect(split(state, bob.address, CONDITION, 4_000_000, NOW, 'split-2')).toEqual({ ok: true, data: { replayed: true } });
    expect(withdraw(state, { address: bob.address, amount: 7_000_000 }, NOW).ok).toBe(false);
    expect(merge(state, bob.address, CONDITION, 5_000_000, NOW).ok).toBe(false);
    expect(redeem(state, bob.address, CONDITION, NOW).ok).toBe(false);
    expect(moveEvents(state.takeEffects().events)).toEqual([]);
  });

  it('comes in the batch in the order of the commands: shares split before they are sold', () => {
    const state = newEngine();
    deposit(state, { address: alice.address, amount: 10_000_000 }, NOW);
    deposit(state, { address: bob.address, amount: 10_000_000 }, NOW);
    placeOrder(state, bob, anOrder(bob, { token: YES, side: 'BUY', price: '0.50', size: '5' }), NOW);
    split(state, alice.address, CONDITION, 5_000_000, NOW);
    placeOrder(state, alice, anOrder(alice, { token: YES, side: 'SELL', price: '0.50', size: '5' }), NOW);
    const kinds = state.takeEffects().events.map((e) => (e.type === 'money-move' ? e.data.kind : e.type));
    expect(kinds.indexOf('split')).toBeGreaterThan(kinds.indexOf('book'));
    expect(kinds.indexOf('split')).toBeLessThan(kinds.indexOf('trade'));
  });
});
