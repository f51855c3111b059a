import { COLLATERAL } from '../../../src/engine/ledger';
import { split } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import { anOrder, balanceOf, CONDITION, expectConserved, FEE_ACCOUNT, fund, newEngine, traderOf, YES, NO } from '../../support/engine-fixture';

const fee = { ratePpm: 40_000, exponent: 1, takerOnly: true, rebateRatePpm: 250_000 };

describe('a resting SELL crossed by a BUY, with taker fees and a maker rebate', () => {
  const state = newEngine(fee);
  const alice = traderOf(1);
  const bob = traderOf(2);

  it('settles every unit as computed by hand', () => {
    fund(state, alice, '100');
    expect(split(state, alice.address, CONDITION, 50_000_000).ok).toBe(true);
    expectConserved(state);

    const ask = placeOrder(state, alice, anOrder(alice, { side: 'SELL', price: '0.60', size: '10' }), 1_000);
    expect(ask).toMatchObject({ success: true, status: 'live', makingAmount: '0', takingAmount: '0' });
    expect(balanceOf(state, alice, YES)).toEqual({ available: 40_000_000, reserved: 10_000_000 });
    expectConserved(state);

    fund(state, bob, '100');
    const bid = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.65', size: '10' }), 2_000);
    // Bob pays the maker's 0.60: 6.00, plus 10 × 0.04 × 0.6 × 0.4 = 0.096 of fee.
    expect(bid).toMatchObject({ success: true, status: 'matched', makingAmount: '6.096', takingAmount: '10', tradeIDs: ['trade-1'] });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 93_904_000, reserved: 0 });
    expect(balanceOf(state, bob, YES)).toEqual({ available: 10_000_000, reserved: 0 });
    // Alice gets 6.00 and a quarter of the fee back.
    expect(balanceOf(state, alice, COLLATERAL)).toEqual({ available: 56_024_000, reserved: 0 });
    expect(balanceOf(state, alice, YES)).toEqual({ available: 40_000_000, reserved: 0 });
    expect(balanceOf(state, alice, NO)).toEqual({ available: 50_000_000, reserved: 0 });
    expect(state.ledger.get(FEE_ACCOUNT, COLLATERAL).available).toBe(72_000);
    expectConserved(state);

    const [trade] = state.effects.trades;
    expect(trade).toMatchObject({ shares: 10_000_000, collateral: 6_000_000, fee: 96_000, feeRateBps: 400, side: 'BUY' });
    expect(trade!.makers).toEqual([expect.objectContaining({ shares: 10_000_000, price: 600_000, fee: 0, rebate: 24_000 })]);
    expect(state.effects.orders.get(ask.orderID)!.status).toBe('MATCHED');
    expect(state.orders.size).toBe(0);
    expect(state.orders.size).toBe(0);
  });
});
