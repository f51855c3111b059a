import { valueOf } from '../../../src/engine/book-terms';
import { feeFor } from '../../../src/engine/fees';
import { COLLATERAL } from '../../../src/engine/ledger';
import { split } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import { anOrder, balanceOf, CONDITION, expectConserved, FEE_ACCOUNT, fund, newEngine, traderOf, NOW } from '../../support/engine-fixture';

// Makers pay: 0.05 x p(1-p), a quarter of taker fees back to the maker. Orders of 0.01 share allowed.
const makersPay = { ratePpm: 50_000, exponent: 1, takerOnly: false, rebateRatePpm: 250_000 };
const tiny = { minOrderSize: 10_000 };

describe('fees of an order filled in many pieces are rounded as a whole', () => {
  const bob = traderOf(1);
  const carol = traderOf(2);

  it('a maker BUY filled 0.01 share at a time pays the fee of what it matched, and keeps exactly what the rest may still cost', () => {
    const state = newEngine(makersPay, tiny);
    fund(state, bob, '10');
    fund(state, carol, '10');
    split(state, carol.address, CONDITION, 2_000_000, NOW);
    // 1 share at 0.50: 0.50 and a maker fee of 1 x 0.05 x 0.25 = 0.0125.
    const bid = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.50', size: '1' }), 1);
    const order = state.orders.get(bid.orderID)!;
    expect(order.reserved).toBe(512_500);
    let makerFees = 0;
    for (let i = 1; i <= 100; i++) {
      placeOrder(state, carol, anOrder(carol, { side: 'SELL', price: '0.50', size: '0.01', type: 'FAK' }), 1 + i);
      const [fill] = state.effects.trades.at(-1)!.makers;
      makerFees += fill!.fee;
      const matched = i * 10_000;
      // Each 0.01 alone owes 0.000125, rounded up to 0.00013: a hundred of them (0.013) outgrew the
      // 0.0125 reserved, and the last fills paid nothing. Now the fills pay what they add to the fee of
      // all matched, which stays what was reserved for it.
      expect(makerFees).toBe(feeFor(makersPay, matched, 500_000));
      if (i < 100) expect(order.reserved).toBe(valueOf(1_000_000 - matched, 500_000) + 12_500 - makerFees);
      expectConserved(state);
    }
    expect(makerFees).toBe(12_500);
    expect(state.orders.has(bid.orderID)).toBe(false);
    expect(balanceOf(state, bob, COLLATERAL).reserved).toBe(0);
  });

  it("a taker's fills against many makers pay the fee of the whole crossing, which is what it reserved", () => {
    const state = newEngine(makersPay, tiny);
    fund(state, carol, '10');
    split(state, carol.address, CONDITION, 2_000_000, NOW);
    for (let i = 0; i < 100; i++) placeOrder(state, carol, anOrder(carol, { side: 'SELL', price: '0.50', size: '0.01' }), 1 + i);
    // 1 share at 0.50 and the taker fee of that crossing, 0.0125, to the unit.
    fund(state, bob, '0.5125');
    const buy = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.50', size: '1' }), 200);
    expect(buy).toMatchObject({ success: true, status: 'matched', makingAmount: '0.5125', takingAmount: '1' });
    const [trade] = state.effects.trades.slice(-1);
    expect(trade).toMatchObject({ shares: 1_000_000, fee: 12_500 });
    expect(trade!.makers).toHaveLength(100);
    // Each fill owes what it adds to the fee of the crossing so far, and its maker gets a quarter of that
    // back: 0.00013 and 0.00012 in turn. Rounded alone, each owed 0.00013, and the last ones, past the
    // reserve, nothing.
    const rebates = trade!.makers.map((fill) => fill.rebate);
    const added = (k: number) => feeFor(makersPay, (k + 1) * 10_000, 500_000) - feeFor(makersPay, k * 10_000, 500_000);
    expect(rebates).toEqual(rebates.map((_, k) => Math.floor(added(k) / 4)));
    expect(rebates.slice(0, 4)).toEqual([32, 30, 32, 30]);
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 0, reserved: 0 });
    expectConserved(state);
  });

  it('a limit BUY reserves the taker fee at the prices it would take, so a balance that pays it exactly is enough', () => {
    const squared = { ratePpm: 72_000, exponent: 2, takerOnly: true, rebateRatePpm: 0 };
    const state = newEngine(squared);
    fund(state, carol, '100');
    split(state, carol.address, CONDITION, 20_000_000, NOW);
    placeOrder(state, carol, anOrder(carol, { side: 'SELL', price: '0.40', size: '5' }), 1);
    placeOrder(state, carol, anOrder(carol, { side: 'SELL', price: '0.45', size: '5.37' }), 2);
    // 20 at 0.50: 10.00, of which 5 at 0.40 and 5.37 at 0.45 cross with fees 0.020736 + 0.0236841 =
    // 0.04442. It was held at 0.50 (0.06917), and a balance of 10.04442 refused (found by a probe).
    fund(state, bob, '10.04441');
    expect(placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.50', size: '20' }), 3)).toMatchObject({ success: false, code: 'INVALID_ORDER_NOT_ENOUGH_BALANCE' });
    fund(state, bob, '0.00001');
    const bid = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.50', size: '20' }), 4);
    expect(bid).toMatchObject({ success: true, status: 'live', takingAmount: '10.37' });
    expect(state.effects.trades.at(-1)).toMatchObject({ fee: 44_420 });
    // The rest, 9.63 at 0.50, stays reserved; the better prices it got came back.
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 10_044_420 - 4_416_500 - 44_420 - 4_815_000, reserved: 4_815_000 });
    expectConserved(state);
  });

  it('a resting BUY gives back its maker-fee reserve at its next fill once the schedule is taker-only', () => {
    const state = newEngine({ ...makersPay, ratePpm: 200_000 });
    fund(state, bob, '10');
    fund(state, carol, '10');
    split(state, carol.address, CONDITION, 10_000_000, NOW);
    // 10 at 0.50 and a maker fee of 10 x 0.2 x 0.25 = 0.50.
    const bid = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.50', size: '10' }), 1);
    expect(state.orders.get(bid.orderID)!.reserved).toBe(5_500_000);
    state.markets.get(CONDITION)!.fee = { ratePpm: 50_000, exponent: 1, takerOnly: true, rebateRatePpm: 0 };
    placeOrder(state, carol, anOrder(carol, { side: 'SELL', price: '0.50', size: '6' }), 2);
    // It paid no maker fee, and holds 4 x 0.50 for the rest: the 0.50 stayed reserved until it ended before.
    expect(state.effects.trades.at(-1)!.makers[0]).toMatchObject({ fee: 0 });
    expect(state.orders.get(bid.orderID)!.reserved).toBe(2_000_000);
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 10_000_000 - 5_000_000, reserved: 2_000_000 });
    // Carol's taker fee under the new schedule: 6 x 0.05 x 0.25 = 0.075.
    expect(state.ledger.get(FEE_ACCOUNT, COLLATERAL).available).toBe(75_000);
    expectConserved(state);
  });
});
