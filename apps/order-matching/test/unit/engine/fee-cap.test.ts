import { COLLATERAL } from '../../../src/engine/ledger';
import { split } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import { anOrder, balanceOf, CONDITION, expectConserved, FEE_ACCOUNT, fund, newEngine, NO, traderOf, YES, NOW } from '../../support/engine-fixture';

/** Upstream's crypto schedule: 0.07, makers paying too here, so that both sides meet the cap. */
const crypto = { ratePpm: 70_000, exponent: 1, takerOnly: false, rebateRatePpm: 0 };
const alice = traderOf(1);
const bob = traderOf(2);

describe("a fill's fee is at most 5% of its value (upstream's maxFeeRateBps)", () => {
  /** Alice holds 100 of each token and asks for her YES; Bob holds 100 of collateral. */
  function aliceAsking(price: string, size: string) {
    const state = newEngine(crypto);
    fund(state, alice, '100');
    fund(state, bob, '100');
    split(state, alice.address, CONDITION, 100_000_000, NOW);
    placeOrder(state, alice, anOrder(alice, { side: 'SELL', price, size }), 1);
    return state;
  }

  it('holds the fees of a trade at 0.10 to 5%, where the formula asks 6.3%', () => {
    const state = aliceAsking('0.10', '100');
    const bid = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.10', size: '100' }), 2);
    // Value 10.00; the formula's fee 100 × 0.07 × 0.1 × 0.9 = 0.63 for each side; 5% of 10.00 is 0.50.
    expect(bid).toMatchObject({ success: true, status: 'matched', makingAmount: '10.5', takingAmount: '100' });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 89_500_000, reserved: 0 });
    expect(balanceOf(state, bob, YES)).toEqual({ available: 100_000_000, reserved: 0 });
    expect(balanceOf(state, alice, COLLATERAL)).toEqual({ available: 9_500_000, reserved: 0 });
    expect(state.ledger.get(FEE_ACCOUNT, COLLATERAL).available).toBe(1_000_000);
    expect(state.effects.trades[0]).toMatchObject({ collateral: 10_000_000, fee: 500_000 });
    expect(state.effects.trades[0]!.makers[0]).toMatchObject({ fee: 500_000 });
    expectConserved(state);
  });

  it("caps a resting BUY's maker fee, gives back what it held for the formula's, and caps a mint's fills each at its own price", () => {
    const state = newEngine(crypto);
    fund(state, alice, '100');
    fund(state, bob, '100');
    // Bob's bid of 100 YES at 0.10 holds 10.00 and the formula's maker fee, 0.63.
    const bid = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.10', size: '100' }), 1);
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 89_370_000, reserved: 10_630_000 });
    // Alice buys 50 NO at 0.90 against it: a mint. Her fee: 50 × 0.07 × 0.09 = 0.315, 0.7% of 45.00;
    // Bob's for 50 at 0.10: 0.315 too, held to 5% of 5.00, 0.25. He keeps the rest's 5.00 and its
    // formula fee (0.315); what he held beyond it (0.065) comes back.
    expect(placeOrder(state, alice, anOrder(alice, { side: 'BUY', price: '0.90', size: '50', token: NO }), 2)).toMatchObject({ makingAmount: '45.315' });
    expect(balanceOf(state, alice, NO)).toEqual({ available: 50_000_000, reserved: 0 });
    expect(balanceOf(state, bob, YES)).toEqual({ available: 50_000_000, reserved: 0 });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 89_435_000, reserved: 5_315_000 });
    expect(state.orders.get(bid.orderID)!.reserved).toBe(5_315_000);
    expect(state.ledger.get(FEE_ACCOUNT, COLLATERAL).available).toBe(315_000 + 250_000);
    expectConserved(state);
  });

  it('leaves a fee under 5% as the formula has it, and the cap follows the setting', () => {
    const state = aliceAsking('0.50', '10');
    // 10 × 0.07 × 0.25 = 0.175, 3.5% of 5.00.
    expect(placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.50', size: '10' }), 2)).toMatchObject({ makingAmount: '5.175' });
    // At 100 bps (1%) the same trade's fees are 0.05 a side.
    state.settings.maxFeeRateBps = 100;
    placeOrder(state, alice, anOrder(alice, { side: 'SELL', price: '0.50', size: '10' }), 3);
    expect(placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.50', size: '10' }), 4)).toMatchObject({ makingAmount: '5.05' });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 89_775_000, reserved: 0 });
    expect(state.ledger.get(FEE_ACCOUNT, COLLATERAL).available).toBe(175_000 * 2 + 50_000 * 2);
    expectConserved(state);
  });
});
