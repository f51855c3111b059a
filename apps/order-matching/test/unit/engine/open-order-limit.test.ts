import { cancelByIds } from '../../../src/engine/cancel-orders';
import { COLLATERAL } from '../../../src/engine/ledger';
import { EngineState } from '../../../src/engine/engine-state';
import { split } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import { aMarket, anOrder, balanceOf, CONDITION, expectConserved, FEE_ACCOUNT, fund, traderOf, YES, NOW } from '../../support/engine-fixture';

describe('the most orders one account may have resting (MAX_OPEN_ORDERS_PER_ACCOUNT)', () => {
  const state = new EngineState({ feeAccount: FEE_ACCOUNT, newId: () => 'trade', maxOpenOrdersPerAccount: 3 });
  state.addMarket(aMarket());
  const alice = traderOf(1);
  const aliceSecondKey = { ...alice, apiKey: 'key-1-second' };
  const bob = traderOf(2);
  const FULL = 'the account has 3 open orders, the most it may have: cancel some before placing more (FOK and FAK orders still go)';
  const resting: string[] = [];

  beforeAll(() => {
    fund(state, alice, '100');
    fund(state, bob, '100');
    expect(split(state, bob.address, CONDITION, 50_000_000, NOW).ok).toBe(true);
    for (const price of ['0.30', '0.31', '0.32']) resting.push(placeOrder(state, alice, anOrder(alice, { side: 'BUY', price, size: '5' }), 1_000).orderID);
    expectConserved(state);
  });

  it('refuses an order that may rest, by any key of the account, once it has that many; nothing is reserved', () => {
    const before = balanceOf(state, alice, COLLATERAL);
    for (const [caller, type] of [[alice, 'GTC'], [aliceSecondKey, 'GTC'], [alice, 'GTD']] as const) {
      const expiration = type === 'GTD' ? Math.floor(Date.now() / 1000) + 3_600 : undefined;
      const refused = placeOrder(state, caller, anOrder(caller, { side: 'BUY', price: '0.33', size: '5', type, expiration }), Date.now());
      expect(refused).toMatchObject({ success: false, errorMsg: FULL, code: 'INVALID_ORDER_ERROR' });
    }
    expect(placeOrder(state, alice, anOrder(alice, { side: 'BUY', price: '0.33', size: '5', postOnly: true }), 2_000)).toMatchObject({ errorMsg: FULL });
    expect(balanceOf(state, alice, COLLATERAL)).toEqual(before);
    expect([...state.orders.keys()]).toEqual(resting);
    expectConserved(state);
  });

  it('still takes its FAK and FOK orders, and every order of other accounts', () => {
    placeOrder(state, bob, anOrder(bob, { side: 'SELL', price: '0.50', size: '10' }), 3_000);
    expect(placeOrder(state, alice, anOrder(alice, { side: 'BUY', price: '0.50', size: '5', type: 'FAK', collateral: '2.5' }), 4_000)).toMatchObject({ success: true, status: 'matched' });
    expect(placeOrder(state, alice, anOrder(alice, { side: 'BUY', price: '0.50', size: '5', type: 'FOK', collateral: '2.5' }), 4_000)).toMatchObject({ success: true, status: 'matched' });
    expect(balanceOf(state, alice, YES)).toEqual({ available: 10_000_000, reserved: 0 });
    expectConserved(state);
  });

  it('takes an order that may rest again once one of them has ended', () => {
    expect(cancelByIds(state, alice, [resting[0]!], 5_000).canceled).toEqual([resting[0]]);
    expect(placeOrder(state, alice, anOrder(alice, { side: 'BUY', price: '0.33', size: '5' }), 6_000)).toMatchObject({ success: true, status: 'live' });
    expect(placeOrder(state, alice, anOrder(alice, { side: 'BUY', price: '0.34', size: '5' }), 6_000)).toMatchObject({ errorMsg: FULL });
    expectConserved(state);
  });
});
