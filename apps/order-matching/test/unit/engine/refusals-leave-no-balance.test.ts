import { COLLATERAL } from '../../../src/engine/ledger';
import { merge, split, withdraw } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import { anOrder, CONDITION, expectConserved, fund, newEngine, NO, traderOf, NOW } from '../../support/engine-fixture';

const broke = traderOf(1);
const funded = traderOf(2);

describe('refused commands of an address that holds nothing', () => {
  it('leave it no balance, in memory or for the journal', () => {
    const state = newEngine();
    fund(state, funded, '10');
    state.ledger.takeChanged();

    const orders = [
      anOrder(broke, { side: 'SELL', price: '0.50', size: '5' }),
      anOrder(broke, { side: 'BUY', price: '0.40', size: '5' }),
      anOrder(broke, { side: 'SELL', price: '0.50', size: '5', token: NO }),
    ];
    orders.forEach((order, i) => expect(placeOrder(state, broke, order, i + 1)).toMatchObject({ success: false, code: 'INVALID_ORDER_NOT_ENOUGH_BALANCE' }));
    expect(split(state, broke.address, CONDITION, 1_000_000, NOW).ok).toBe(false);
    expect(merge(state, broke.address, CONDITION, 1_000_000, NOW).ok).toBe(false);
    expect(withdraw(state, { address: broke.address, amount: 1_000_000 }, NOW).ok).toBe(false);

    expect(state.ledger.holdings(broke.address)).toEqual([]);
    expect(state.ledger.takeChanged()).toEqual([]);
    expectConserved(state);
  });

  it('still moves and journals what a funded address pays', () => {
    const state = newEngine();
    fund(state, funded, '10');
    state.ledger.takeChanged();
    expect(placeOrder(state, funded, anOrder(funded, { side: 'BUY', price: '0.40', size: '5' }), 1)).toMatchObject({ success: true });
    expect(state.ledger.takeChanged()).toEqual([{ address: funded.address, asset: COLLATERAL, available: 8_000_000, reserved: 2_000_000 }]);
  });
});
