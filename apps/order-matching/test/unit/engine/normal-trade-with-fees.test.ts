import { COLLATERAL } from '../../../src/engine/ledger';
import { split } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import { anOrder, balanceOf, CONDITION, expectConserved, FEE_ACCOUNT, fund, newEngine, traderOf, YES, NO, NOW } from '../../support/engine-fixture';

const fee = { ratePpm: 40_000, exponent: 1, takerOnly: true, rebateRatePpm: 250_000 };

describe('a resting SELL crossed by a BUY, with taker fees and a maker rebate', () => {
  const state = newEngine(fee);
  const alice = traderOf(1);
  const bob = traderOf(2);

  it('settles every unit as computed by hand', () => {
    fund(state, alice, '100');
    expect(split(state, alice.address, CONDITION, 50_000_000, NOW).ok).toBe(true);
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
    // Makers pay nothing on a taker-only schedule, and the trade says so.
    expect(trade).toMatchObject({ shares: 10_000_000, collateral: 6_000_000, fee: 96_000, feeRateBps: 400, makerFeeRateBps: 0, side: 'BUY' });
    expect(trade!.makers).toEqual([expect.objectContaining({ shares: 10_000_000, price: 600_000, fee: 0, rebate: 24_000 })]);
    expect(state.effects.orders.get(ask.orderID)!.status).toBe('MATCHED');
    expect(state.orders.size).toBe(0);
  });
});

describe('a BUY that rests keeps reserved only what it can still spend as a maker', () => {
  const alice = traderOf(1);
  const bob = traderOf(2);
  const carol = traderOf(3);

  it('gives back the taker fee it no longer owes and the better prices it got', () => {
    const state = newEngine(fee);
    fund(state, alice, '100');
    fund(state, bob, '100');
    fund(state, carol, '100');
    split(state, alice.address, CONDITION, 50_000_000, NOW);
    split(state, carol.address, CONDITION, 50_000_000, NOW);
    placeOrder(state, alice, anOrder(alice, { side: 'SELL', price: '0.40', size: '10' }), 1);
    // Reserved at first: 20 x 0.50 and the largest taker fee, 20 x 0.04 x 0.25 = 0.20. It buys 10 at 0.40
    // (4.00 + 10 x 0.04 x 0.4 x 0.6 = 0.096 of fee), then rests 10 at 0.50, which as a maker of a
    // taker-only schedule owes no fee: 5.00 stays reserved, not 10.20 - 4.096 = 6.104.
    const bid = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.50', size: '20' }), 2);
    expect(bid).toMatchObject({ status: 'live', makingAmount: '4.096', takingAmount: '10' });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 90_904_000, reserved: 5_000_000 });
    expect(state.orders.get(bid.orderID)!.reserved).toBe(5_000_000);
    expectConserved(state);

    placeOrder(state, carol, anOrder(carol, { side: 'SELL', price: '0.50', size: '10' }), 3);
    // Its 5.00 reserved pays for the rest; a quarter of carol's taker fee (10 x 0.04 x 0.25 = 0.10) comes back.
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 90_929_000, reserved: 0 });
    expect(balanceOf(state, bob, YES)).toEqual({ available: 20_000_000, reserved: 0 });
    expect(state.orders.size).toBe(0);
    expectConserved(state);
  });

  it('needs no fee on a taker-only schedule for what it cannot take now (a quote of the whole balance)', () => {
    const state = newEngine(fee);
    fund(state, bob, '4');
    // Refused for want of 0.096 of a taker fee until the eighteenth session, though nothing could cross.
    const quote = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.40', size: '10' }), 1);
    expect(quote).toMatchObject({ success: true, status: 'live' });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 0, reserved: 4_000_000 });
    fund(state, carol, '4');
    expect(placeOrder(state, carol, anOrder(carol, { side: 'BUY', price: '0.40', size: '10', postOnly: true }), 2)).toMatchObject({ success: true, status: 'live' });
    expectConserved(state);
  });

  it('holds a taker fee only for the shares the book holds at its price or better', () => {
    const state = newEngine(fee);
    fund(state, alice, '100');
    split(state, alice.address, CONDITION, 50_000_000, NOW);
    placeOrder(state, alice, anOrder(alice, { side: 'SELL', price: '0.40', size: '5' }), 1);
    placeOrder(state, alice, anOrder(alice, { side: 'SELL', price: '0.45', size: '5' }), 2);
    // 10 at 0.40: 4.00 and the fee of the 5 it can take, 5 x 0.04 x 0.4 x 0.6 = 0.048 (not 0.096 for 10).
    // A thousandth less is refused, and changes nothing.
    fund(state, carol, '4.047');
    expect(placeOrder(state, carol, anOrder(carol, { side: 'BUY', price: '0.40', size: '10' }), 3)).toMatchObject({ success: false });
    expect(balanceOf(state, carol, COLLATERAL)).toEqual({ available: 4_047_000, reserved: 0 });
    fund(state, bob, '4.048');
    const bid = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.40', size: '10' }), 4);
    expect(bid).toMatchObject({ success: true, status: 'live', makingAmount: '2.048', takingAmount: '5' });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 0, reserved: 2_000_000 });
    expectConserved(state);
  });

  it('holds the maker fee of a post-only BUY when the schedule charges makers', () => {
    const state = newEngine({ ...fee, takerOnly: false });
    fund(state, bob, '4');
    expect(placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.40', size: '10', postOnly: true }), 1)).toMatchObject({ success: false });
    fund(state, bob, '0.096');
    expect(placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.40', size: '10', postOnly: true }), 2)).toMatchObject({ success: true, status: 'live' });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 0, reserved: 4_096_000 });
    expectConserved(state);
  });

  it('holds the maker fee at its own price above 0.50, so that a partial fill leaves what a fresh order of the rest would hold', () => {
    const state = newEngine({ ...fee, takerOnly: false });
    fund(state, bob, '100');
    fund(state, carol, '100');
    split(state, carol.address, CONDITION, 50_000_000, NOW);
    // 10 x 0.60 and a maker fee of 10 x 0.04 x 0.6 x 0.4 = 0.096 (it held the fee at 0.50, 0.10, before).
    const bid = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.60', size: '10' }), 1);
    expect(state.orders.get(bid.orderID)!.reserved).toBe(6_096_000);
    placeOrder(state, carol, anOrder(carol, { side: 'SELL', price: '0.60', size: '5' }), 2);
    const fresh = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.60', size: '5' }), 3);
    expect(state.orders.get(bid.orderID)!.reserved).toBe(state.orders.get(fresh.orderID)!.reserved);
    expect(state.orders.get(fresh.orderID)!.reserved).toBe(3_048_000);
    expectConserved(state);
  });

  it('keeps the maker fee when the schedule charges makers', () => {
    const state = newEngine({ ...fee, takerOnly: false });
    fund(state, bob, '100');
    fund(state, carol, '100');
    split(state, carol.address, CONDITION, 50_000_000, NOW);
    // 20 x 0.30 and a maker fee of 20 x 0.04 x 0.3 x 0.7 = 0.168.
    const bid = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.30', size: '20' }), 1);
    expect(balanceOf(state, bob, COLLATERAL).reserved).toBe(6_168_000);
    placeOrder(state, carol, anOrder(carol, { side: 'SELL', price: '0.30', size: '10' }), 2);
    // Half of it bought: 3.00 and 0.084 of maker fee spent, the other half's 3.084 still reserved, and a
    // quarter of carol's taker fee (the same 0.084) comes back as a rebate.
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 100_000_000 - 6_168_000 + 21_000, reserved: 3_084_000 });
    expect(state.orders.get(bid.orderID)!.reserved).toBe(3_084_000);
    expect(state.effects.trades.map((t) => [t.feeRateBps, t.makerFeeRateBps])).toEqual([[400, 400]]);
    expectConserved(state);
  });
});

describe('a market BUY over two levels, with taker fees', () => {
  it('pays each fill its whole fee though its cap is far above the prices it trades at', () => {
    const state = newEngine(fee);
    const alice = traderOf(1);
    const bob = traderOf(2);
    fund(state, alice, '100');
    fund(state, bob, '100');
    split(state, alice.address, CONDITION, 20_000_000, NOW);
    placeOrder(state, alice, anOrder(alice, { side: 'SELL', price: '0.50', size: '5' }), 1);
    placeOrder(state, alice, anOrder(alice, { side: 'SELL', price: '0.55', size: '5' }), 2);

    // $5 at a cap of 0.70: 5 shares at 0.50, then 4.54 at 0.55 for 2.497. Fees: 5 × 0.04 × 0.5 × 0.5 =
    // 0.05 and 4.54 × 0.04 × 0.55 × 0.45 = 0.044946, rounded to 0.04495. The rest of the budget
    // (0.003) does not buy another 0.01 share.
    const buy = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.70', size: '7.1428', type: 'FAK', collateral: '5' }), 3);
    expect(buy).toMatchObject({ success: true, status: 'matched', makingAmount: '5.09195', takingAmount: '9.54' });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 94_908_050, reserved: 0 });
    expect(balanceOf(state, bob, YES)).toEqual({ available: 9_540_000, reserved: 0 });
    expect(state.effects.trades[0]).toMatchObject({ shares: 9_540_000, collateral: 4_997_000, fee: 94_950 });
    expectConserved(state);
  });

  it('needs the fee at the prices it pays, so a whole balance spent as the stock client computes it is taken', () => {
    // $9.91 at a cap of 0.55 buys 18.01 shares for 9.9055; their fee at 0.55 is 18.01 × 0.04 × 0.55 ×
    // 0.45 = 0.178299, rounded to 0.1783. The client made the amount fit a balance of 10.0883 with the fee
    // at that price; until the nineteenth session the fee was held at 0.50 (0.1801) and the order refused.
    const state = newEngine(fee);
    const alice = traderOf(1);
    const bob = traderOf(2);
    fund(state, alice, '100');
    split(state, alice.address, CONDITION, 20_000_000, NOW);
    placeOrder(state, alice, anOrder(alice, { side: 'SELL', price: '0.55', size: '20' }), 1);
    const marketBuy = () => anOrder(bob, { side: 'BUY', price: '0.55', size: '18.0181', type: 'FOK', collateral: '9.91' });

    fund(state, bob, '10.0882');
    expect(placeOrder(state, bob, marketBuy(), 2)).toMatchObject({ success: false, code: 'INVALID_ORDER_NOT_ENOUGH_BALANCE' });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 10_088_200, reserved: 0 });
    fund(state, bob, '0.0001');
    expect(placeOrder(state, bob, marketBuy(), 3)).toMatchObject({ success: true, status: 'matched', makingAmount: '10.0838', takingAmount: '18.01' });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 4_500, reserved: 0 });
    expect(balanceOf(state, bob, YES)).toEqual({ available: 18_010_000, reserved: 0 });
    expectConserved(state);
  });
});
