import { COLLATERAL } from '../../../src/engine/ledger';
import { EngineState } from '../../../src/engine/engine-state';
import { split } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import { aMarket, anOrder, balanceOf, CONDITION, expectConserved, FEE_ACCOUNT, fund, traderOf, YES, NOW } from '../../support/engine-fixture';

describe('the most resting orders one order may trade with (MAX_MAKERS_PER_ORDER)', () => {
  const state = new EngineState({ feeAccount: FEE_ACCOUNT, newId: () => 'trade', maxMakersPerOrder: 2 });
  state.addMarket(aMarket());
  const alice = traderOf(1);
  const bob = traderOf(2);
  const asks: string[] = [];

  beforeAll(() => {
    fund(state, alice, '100');
    expect(split(state, alice.address, CONDITION, 50_000_000, NOW).ok).toBe(true);
    for (const price of ['0.60', '0.61', '0.62']) asks.push(placeOrder(state, alice, anOrder(alice, { side: 'SELL', price, size: '5' }), 1_000).orderID);
    fund(state, bob, '100');
    expectConserved(state);
  });

  it('refuses an order that would take more, whole, with a text that says what to do; nothing moves', () => {
    // A market BUY (FAK) of 9.30 up to 0.62 buys all three asks, for 9.15 (the core test covers FOK's turn).
    for (const type of ['GTC', 'FAK'] as const) {
      const refused = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.62', size: '15', type }), 2_000);
      expect(refused).toMatchObject({
        success: false,
        errorMsg: 'the order would trade with more than 2 resting orders, the most one order may: split it into smaller orders',
      });
    }
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 100_000_000, reserved: 0 });
    expect([...state.orders.keys()]).toEqual(asks);
    expectConserved(state);
  });

  it('takes an order that needs no more, as usual', () => {
    const taken = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.62', size: '10' }), 3_000);
    expect(taken).toMatchObject({ success: true, status: 'matched', makingAmount: '6.05', takingAmount: '10' });
    expect(balanceOf(state, bob, YES)).toEqual({ available: 10_000_000, reserved: 0 });
    expect([...state.orders.keys()]).toEqual([asks[2]]);
    expectConserved(state);
  });
});
