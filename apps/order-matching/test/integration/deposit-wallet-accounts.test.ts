import { toChecksumAddress } from '@exchange/chain';
import { anOrder, aWalletOrder, traderOf } from '../support/engine-fixture';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

const CONDITION = `0x${'d3'.repeat(32)}`;
const YES = '301';
const NO = '302';
const owner = traderOf(1);
const counterparty = traderOf(2);
const wallet = traderOf(9).address;
/** The owner's key after the first one was deleted: another API key of the same address. */
const ownersNewKey = { ...owner, apiKey: 'key-1-second' };

/** An owner's keys reach its deposit wallet's account: orders, trades, balances and money moves (docs/trading.md). */
describe("a deposit wallet's owner on real PostgreSQL and NATS", () => {
  let om: MatchingUnderTest;

  beforeAll(async () => {
    om = await startMatching();
    await om.publishMarket(aMarketSnapshot(CONDITION, [YES, NO]));
  });
  afterAll(() => om.stop());

  const place = (caller: typeof owner, order: ReturnType<typeof anOrder>) => om.place(caller, order);
  const bind = (w: string, o: string) => om.request('matching.admin.wallet.bind.v1', { wallet: w, owner: o });
  const collateral = async (caller: typeof owner, signature_type?: number) =>
    (await om.data('matching.balance.get.v1', { caller, asset_type: 'COLLATERAL', signature_type })).balance;

  it('binds one wallet per owner, also when two binds race', async () => {
    expect(await bind(wallet, owner.address)).toMatchObject({ ok: true });
    expect(await bind(traderOf(8).address, owner.address)).toMatchObject({
      ok: false,
      status: 409,
      body: { code: 'conflict', error: `owner ${toChecksumAddress(owner.address)} has deposit wallet ${toChecksumAddress(wallet)} (one per owner)` },
    });
    // Binds run one at a time: the second sees the first.
    const racer = traderOf(7).address;
    const results = await Promise.all([bind(traderOf(5).address, racer), bind(traderOf(6).address, racer)]);
    expect(results.map((r) => r.ok).sort()).toEqual([false, true]);
    expect(results.find((r) => !r.ok)).toMatchObject({ status: 409, body: { code: 'conflict' } });
  });

  it('trades through the wallet and shows it to the owner', async () => {
    await om.data('matching.admin.deposit.v1', { address: wallet, amount: '100' });
    await om.data('matching.admin.deposit.v1', { address: counterparty.address, amount: '100' });
    expect(await collateral(owner, 3)).toBe('100000000');
    expect(await collateral(owner)).toBe('0');
    expect(await om.request('matching.balance.get.v1', { caller: counterparty, asset_type: 'COLLATERAL', signature_type: 3 })).toMatchObject({
      ok: false,
      status: 404,
      body: { code: 'wallet_not_found' },
    });

    const bid = await place(owner, aWalletOrder(owner, wallet, { token: YES, side: 'BUY', price: '0.40', size: '10' }));
    expect(bid).toMatchObject({ success: true, status: 'live' });
    const cross = await place(counterparty, anOrder(counterparty, { token: NO, side: 'BUY', price: '0.60', size: '10' }));
    expect(cross).toMatchObject({ success: true, status: 'matched' });
    const trades = await om.data('matching.trades.list.v1', { caller: ownersNewKey });
    expect(trades.data).toHaveLength(1);
    expect(trades.data[0]).toMatchObject({ id: cross.tradeIDs[0], trader_side: 'MAKER' });
    expect(trades.data[0]!.maker_orders[0]).toMatchObject({ order_id: bid.orderID, maker_address: toChecksumAddress(wallet) });
    expect(await om.data('matching.orders.get.v1', { caller: ownersNewKey, id: bid.orderID })).toMatchObject({ status: 'MATCHED' });
    // $4 for 10 YES, and a maker rebate of a quarter of the taker's fee (10 × 0.04 × 0.4 × 0.6 = 0.096).
    expect(await collateral(owner, 3)).toBe('96024000');
    await om.expectConserved();
  });

  it('moves money of the account the signature type names', async () => {
    const split = await om.data('matching.split.v1', { caller: owner, conditionId: CONDITION, amount: '5', signatureType: 3 });
    expect(split).toMatchObject({ address: toChecksumAddress(wallet), collateral: { available: '91.024' } });
    expect(split.positions).toEqual([
      { token_id: YES, available: '15', reserved: '0' },
      { token_id: NO, available: '5', reserved: '0' },
    ]);
    const merged = await om.data('matching.merge.v1', { caller: owner, conditionId: CONDITION, amount: '5', signatureType: 3 });
    expect(merged).toMatchObject({ address: toChecksumAddress(wallet), collateral: { available: '96.024' } });
    expect(await om.request('matching.split.v1', { caller: owner, conditionId: CONDITION, amount: '5' })).toMatchObject({
      ok: false,
      body: { code: 'insufficient_balance' },
    });
    expect(await om.request('matching.merge.v1', { caller: owner, conditionId: CONDITION, amount: '5', signatureType: 1 })).toMatchObject({
      ok: false,
      status: 400,
      body: { code: 'invalid_request' },
    });
    await om.expectConserved();
  });

  it("keeps the binding across a restart: the owner's new key lists and cancels the wallet's orders, then redeems", async () => {
    const resting = await place(owner, aWalletOrder(owner, wallet, { token: YES, side: 'BUY', price: '0.20', size: '10' }));
    expect(resting).toMatchObject({ success: true, status: 'live' });
    await om.restart();

    expect(await bind(traderOf(8).address, owner.address)).toMatchObject({ ok: false, status: 409 });
    const open = await om.data('matching.orders.list.v1', { caller: ownersNewKey });
    expect(open.data.map((o) => o.id)).toEqual([resting.orderID]);
    expect(await om.data('matching.orders.cancel-all.v1', { caller: ownersNewKey })).toEqual({ canceled: [resting.orderID], not_canceled: {} });
    expect(await collateral(ownersNewKey, 3)).toBe('96024000');

    await om.data('matching.admin.resolve.v1', { conditionId: CONDITION, winningOutcome: 0 });
    expect(await om.request('matching.redeem.v1', { caller: ownersNewKey, conditionId: CONDITION })).toMatchObject({ ok: false, body: { code: 'nothing_to_redeem' } });
    const redeemed = await om.data('matching.redeem.v1', { caller: ownersNewKey, conditionId: CONDITION, signatureType: 3 });
    expect(redeemed).toMatchObject({ address: toChecksumAddress(wallet), collateral: { available: '106.024', reserved: '0' }, positions: [] });
    await om.expectConserved();
  });
});
