import { callerAccounts, fundingAccount } from '../../../src/engine/caller-accounts';
import { callerOrderIds, callerOrders, cancelByIds } from '../../../src/engine/cancel-orders';
import { COLLATERAL } from '../../../src/engine/ledger';
import { placeOrder } from '../../../src/engine/place-order';
import type { EngineState } from '../../../src/engine/engine-state';
import { anOrder, aWalletOrder, expectConserved, fund, newEngine, traderOf } from '../../support/engine-fixture';

const owner = traderOf(1);
const stranger = traderOf(2);
const wallet = traderOf(9).address.toLowerCase();
/** The owner's second key (after the first was deleted, say): another API key, the same address. */
const ownersNewKey = { ...owner, apiKey: 'key-1-new' };

describe("a caller's accounts: its key's address and the deposit wallet bound to it", () => {
  let state: EngineState;

  beforeEach(() => {
    state = newEngine();
    state.wallets.bind(wallet, owner.address);
    fund(state, { apiKey: 'none', address: wallet }, '100');
    fund(state, owner, '10');
  });

  it('lists the address, then its wallet', () => {
    expect(callerAccounts(state, owner)).toEqual([owner.address, wallet]);
    expect(callerAccounts(state, stranger)).toEqual([stranger.address]);
    expect(state.wallets.ownerOf(wallet)).toBe(owner.address);
    expect(state.wallets.walletOf(owner.address)).toBe(wallet);
  });

  it('names the account of a balance or money move by signature type', () => {
    expect(fundingAccount(state, owner)).toEqual({ ok: true, data: owner.address });
    expect(fundingAccount(state, owner, 0)).toEqual({ ok: true, data: owner.address });
    expect(fundingAccount(state, owner, 3)).toEqual({ ok: true, data: wallet });
    expect(fundingAccount(state, stranger, 3)).toMatchObject({ ok: false, status: 404, body: { code: 'wallet_not_found' } });
    for (const type of [1, 2]) expect(fundingAccount(state, owner, type)).toMatchObject({ ok: false, status: 400, body: { code: 'invalid_request' } });
  });

  it("gives a key of the wallet's own address nothing: the wallet is reached through its owner", () => {
    const walletsKey = { apiKey: 'key-of-the-wallet', address: wallet };
    const placed = placeOrder(state, owner, aWalletOrder(owner, wallet, { side: 'BUY', price: '0.40', size: '10' }), 10);
    expect(callerAccounts(state, walletsKey)).toEqual([]);
    expect(callerOrders(state, walletsKey)).toEqual([]);
    expect(cancelByIds(state, walletsKey, [placed.orderID], 11).canceled).toEqual([]);
    expect(fundingAccount(state, walletsKey)).toMatchObject({ ok: false, status: 403, body: { code: 'forbidden' } });
    // Before, an EOA order of the wallet's address spent the balance its owner trades with.
    expect(placeOrder(state, walletsKey, anOrder(walletsKey, { side: 'BUY', price: '0.40', size: '10' }), 12)).toMatchObject({
      success: false,
      errorMsg: 'maker address not allowed, please use the deposit wallet flow',
    });
    expect(state.ledger.get(wallet, COLLATERAL)).toEqual({ available: 96_000_000, reserved: 4_000_000 });
  });

  it("reaches the wallet's orders from any of the owner's keys, and nobody else's", () => {
    const placed = placeOrder(state, owner, aWalletOrder(owner, wallet, { side: 'BUY', price: '0.40', size: '10' }), 10);
    const own = placeOrder(state, owner, anOrder(owner, { side: 'BUY', price: '0.30', size: '10' }), 11);
    expect([placed.success, own.success]).toEqual([true, true]);
    expect(callerOrders(state, ownersNewKey).map((o) => o.id)).toEqual([placed.orderID, own.orderID]);
    expect(callerOrders(state, stranger)).toEqual([]);

    expect(cancelByIds(state, stranger, [placed.orderID], 12).canceled).toEqual([]);
    expect(cancelByIds(state, ownersNewKey, [placed.orderID], 12)).toEqual({ canceled: [placed.orderID], not_canceled: {} });
    expect(state.ledger.get(wallet, COLLATERAL)).toEqual({ available: 100_000_000, reserved: 0 });
    expect(cancelByIds(state, ownersNewKey, callerOrderIds(state, ownersNewKey, () => true), 13).canceled).toEqual([own.orderID]);
    expectConserved(state);
  });
});
