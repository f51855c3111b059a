import { COLLATERAL } from '../../../src/engine/ledger';
import { split } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import { anOrder, aWalletOrder, balanceOf, CONDITION, expectConserved, fund, newEngine, NO, traderOf, YES, NOW } from '../../support/engine-fixture';

const alice = traderOf(1);
const bob = traderOf(2);

function withAsks() {
  const state = newEngine();
  fund(state, alice, '100');
  fund(state, bob, '100');
  split(state, alice.address, CONDITION, 20_000_000, NOW);
  placeOrder(state, alice, anOrder(alice, { side: 'SELL', price: '0.50', size: '5' }), 1);
  placeOrder(state, alice, anOrder(alice, { side: 'SELL', price: '0.55', size: '5' }), 2);
  return state;
}

describe('order types', () => {
  it('FOK fills entirely or changes nothing', () => {
    const state = withAsks();
    const before = balanceOf(state, bob, COLLATERAL);
    const tooBig = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.55', size: '11', type: 'FOK', collateral: '6.05' }), 3);
    expect(tooBig).toMatchObject({ success: false, code: 'FOK_ORDER_NOT_FILLED_ERROR', errorMsg: "order couldn't be fully filled. FOK orders are fully filled or killed." });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual(before);
    // $5.50 to spend: the 10 shares up to 0.55 cost $5.25, so it cannot be spent whole.
    const moreThanTheBook = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.55', size: '10', type: 'FOK', collateral: '5.5' }), 4);
    expect(moreThanTheBook).toMatchObject({ success: false, code: 'FOK_ORDER_NOT_FILLED_ERROR' });
    const fits = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.55', size: '9.5454', type: 'FOK', collateral: '5.25' }), 5);
    expect(fits).toMatchObject({ success: true, status: 'matched', makingAmount: '5.25', takingAmount: '10' });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 94_750_000, reserved: 0 });
    expectConserved(state);
  });

  it('a marketable BUY spends its collateral amount, the price improvement buying more shares', () => {
    const state = withAsks();
    // $5 at a cap of 0.55: 5 shares at 0.50 ($2.50), then $2.50 buys 4.54 shares at 0.55 ($2.497).
    const buy = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.55', size: '9.0909', type: 'FOK', collateral: '5' }), 3);
    expect(buy).toMatchObject({ success: true, status: 'matched', makingAmount: '4.997', takingAmount: '9.54' });
    expect(balanceOf(state, bob, YES)).toEqual({ available: 9_540_000, reserved: 0 });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 95_003_000, reserved: 0 });
    expectConserved(state);
  });

  it('a marketable BUY needs its whole amount, though the book would take less of it', () => {
    const state = withAsks();
    const before = balanceOf(state, bob, COLLATERAL);
    const tooMuch = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.55', size: '272.7272', type: 'FAK', collateral: '150' }), 3);
    expect(tooMuch).toMatchObject({ success: false, code: 'INVALID_ORDER_NOT_ENOUGH_BALANCE' });
    // A FOK the book could not fill either is told of its balance first, as any other order.
    const neither = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.70', size: '285.7142', type: 'FOK', collateral: '200' }), 3);
    expect(neither).toMatchObject({ success: false, code: 'INVALID_ORDER_NOT_ENOUGH_BALANCE', errorMsg: 'not enough balance / allowance' });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual(before);
    const covered = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.55', size: '181.8181', type: 'FAK', collateral: '100' }), 4);
    expect(covered).toMatchObject({ success: true, makingAmount: '5.25', takingAmount: '10' });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual({ available: 94_750_000, reserved: 0 });
    expectConserved(state);
  });

  it('a marketable BUY of NO spends its amount on bids of YES at 1 − their price', () => {
    const state = newEngine();
    fund(state, alice, '100');
    fund(state, bob, '100');
    placeOrder(state, alice, anOrder(alice, { side: 'BUY', price: '0.60', size: '5' }), 1);
    placeOrder(state, alice, anOrder(alice, { side: 'BUY', price: '0.50', size: '10' }), 2);
    // NO costs 0.40 against the first bid, 0.50 against the second; $4 at a NO cap of 0.50: 5 × 0.40 + 4 × 0.50.
    const fak = placeOrder(state, bob, anOrder(bob, { token: NO, side: 'BUY', price: '0.50', size: '8', type: 'FAK', collateral: '4' }), 3);
    expect(fak).toMatchObject({ success: true, status: 'matched', makingAmount: '4', takingAmount: '9' });
    expect(balanceOf(state, bob, NO)).toEqual({ available: 9_000_000, reserved: 0 });
    expect(balanceOf(state, alice, YES)).toEqual({ available: 9_000_000, reserved: 0 });
    expectConserved(state);
  });

  it('FAK fills what crosses and drops the rest; with nothing to cross it is refused', () => {
    const state = withAsks();
    const partial = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.52', size: '8', type: 'FAK', collateral: '4.16' }), 3);
    expect(partial).toMatchObject({ success: true, status: 'matched', takingAmount: '5', makingAmount: '2.5' });
    expect(balanceOf(state, bob, COLLATERAL).reserved).toBe(0);
    const none = placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.40', size: '8', type: 'FAK', collateral: '3.2' }), 4);
    expect(none).toMatchObject({ success: false, code: 'FAK_ORDER_NOT_FILLED_ERROR' });
    expectConserved(state);
  });

  // docs/trading.md: a killed FOK or FAK is refused like any invalid order, so nothing of it is kept:
  // were it recorded, the same signed order sent again would be refused as a duplicate.
  it('keeps nothing of a killed FOK: the same signed order is taken once the book can fill it', () => {
    const state = withAsks();
    const fok = anOrder(bob, { side: 'BUY', price: '0.55', size: '11', type: 'FOK', collateral: '6.05' });
    expect(placeOrder(state, bob, fok, 3)).toMatchObject({ success: false, code: 'FOK_ORDER_NOT_FILLED_ERROR' });
    // With 5 more at 0.55, its $6.05 buys 5 shares at 0.50 and 6.45 at 0.55.
    placeOrder(state, alice, anOrder(alice, { side: 'SELL', price: '0.55', size: '5' }), 4);
    expect(placeOrder(state, bob, fok, 5)).toMatchObject({ success: true, orderID: fok.orderId, status: 'matched', takingAmount: '11.45' });
    expectConserved(state);
  });

  it('keeps nothing of a FAK killed against an empty side: the same signed order is taken once there is a bid', () => {
    const state = withAsks();
    // Alice holds 10 YES beyond her asks; nobody bids.
    const fak = anOrder(alice, { side: 'SELL', price: '0.45', size: '5', type: 'FAK' });
    expect(placeOrder(state, alice, fak, 3)).toMatchObject({ success: false, code: 'FAK_ORDER_NOT_FILLED_ERROR' });
    expect(balanceOf(state, alice, YES)).toEqual({ available: 10_000_000, reserved: 10_000_000 });
    placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.45', size: '5' }), 4);
    expect(placeOrder(state, alice, fak, 5)).toMatchObject({ success: true, orderID: fak.orderId, status: 'matched', makingAmount: '5' });
    expect(balanceOf(state, bob, YES)).toEqual({ available: 5_000_000, reserved: 0 });
    expectConserved(state);
  });

  it('postOnly rests when it does not cross and is refused when it would', () => {
    const state = withAsks();
    expect(placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.50', size: '5', postOnly: true }), 3)).toMatchObject({
      success: false,
      code: 'INVALID_POST_ONLY_ORDER',
      errorMsg: 'invalid post-only order: order crosses book',
    });
    expect(placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.49', size: '5', postOnly: true }), 4)).toMatchObject({ success: true, status: 'live' });
    expect(placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.49', size: '5', postOnly: true, type: 'FOK' }), 5)).toMatchObject({
      code: 'INVALID_POST_ONLY_ORDER_TYPE',
    });
    expectConserved(state);
  });

  it('in post-only mode only post-only orders pass, with a retry time', () => {
    const state = withAsks();
    state.postOnlyUntil = 61_000;
    expect(placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.40', size: '5' }), 1_000)).toMatchObject({
      success: false,
      code: 'post_only_mode',
      retry_after_seconds: 60,
    });
    expect(placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.40', size: '5', postOnly: true }), 1_000).success).toBe(true);
  });

  it('GTD needs an expiration more than 60 s ahead and within year 9999; others need none', () => {
    const state = withAsks();
    const now = 1_700_000_000_000;
    const gtd = (expiration: number) => placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.40', size: '5', type: 'GTD', expiration }), now);
    expect(gtd(now / 1000 + 30).code).toBe('INVALID_ORDER_EXPIRATION');
    expect(gtd(now / 1000 + 60).code).toBe('INVALID_ORDER_EXPIRATION');
    expect(gtd(now / 1000 + 61).success).toBe(true);
    expect(gtd(253_402_300_799).success).toBe(true);
    // Beyond it, PostgreSQL's bigint and exact doubles run out: such an order once failed its whole journal batch.
    expect(gtd(253_402_300_800).code).toBe('INVALID_ORDER_EXPIRATION');
    expect(gtd(1e20).code).toBe('INVALID_ORDER_EXPIRATION');
    expect(placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.40', size: '5', type: 'GTD', expiration: now / 1000 + 30 }), now).code).toBe('INVALID_ORDER_EXPIRATION');
    expect(placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.40', size: '5', expiration: now / 1000 + 600 }), now).code).toBe('INVALID_ORDER_EXPIRATION');
    expect(placeOrder(state, bob, anOrder(bob, { side: 'BUY', price: '0.40', size: '5', type: 'GTD', expiration: now / 1000 + 600 }), now).success).toBe(true);
  });
});

describe('rejections change nothing and say why in the upstream words', () => {
  // Each test on a book of its own: none sees what another placed or bound.
  let state: ReturnType<typeof withAsks>;
  beforeEach(() => {
    state = withAsks();
  });
  const cases: [string, Parameters<typeof anOrder>[1], string, string][] = [
    ['off the tick grid', { side: 'BUY', price: '0.405', size: '5' }, 'INVALID_ORDER_MIN_TICK_SIZE', 'breaks minimum tick size rule: 0.01'],
    ['below the tick range', { side: 'BUY', price: '0.00', size: '5', collateral: '0' }, 'INVALID_ORDER_ERROR', 'invalid amounts'],
    ['below the minimum size', { side: 'BUY', price: '0.40', size: '4.99' }, 'INVALID_ORDER_MIN_SIZE', 'Size (4.99) lower than the minimum: 5'],
    ['a size finer than 0.01', { side: 'BUY', price: '0.40', size: '5.001' }, 'INVALID_ORDER_ERROR', 'max accuracy'],
    ['more than the balance', { side: 'BUY', price: '0.90', size: '200' }, 'INVALID_ORDER_NOT_ENOUGH_BALANCE', 'not enough balance / allowance'],
    ['shares it does not hold', { side: 'SELL', price: '0.90', size: '5' }, 'INVALID_ORDER_NOT_ENOUGH_BALANCE', 'not enough balance'],
    ['an unknown token', { side: 'BUY', price: '0.40', size: '5', token: '999' }, 'INVALID_ORDER_ERROR', 'invalid token id'],
  ];
  it.each(cases)('%s', (_name, order, code, message) => {
    const before = JSON.stringify(state.ledger.get(bob.address, COLLATERAL));
    const result = placeOrder(state, bob, anOrder(bob, order), 10);
    expect(result).toMatchObject({ success: false, code, errorMsg: expect.stringContaining(message) });
    expect(JSON.stringify(state.ledger.get(bob.address, COLLATERAL))).toBe(before);
    expectConserved(state);
  });

  it("refuses an order naming another market than its token's, and takes one naming its own", () => {
    const named = (conditionId: string) => {
      const order = anOrder(bob, { side: 'BUY', price: '0.40', size: '5' });
      return { ...order, submission: { ...order.submission, order: { ...order.submission.order, conditionId } } };
    };
    // Placed in the token's market until the twenty-first session (found by fuzzing).
    expect(placeOrder(state, bob, named(`0x${'d0'.repeat(32)}`), 10)).toMatchObject({
      success: false,
      code: 'INVALID_ORDER_ERROR',
      errorMsg: `the order's conditionId is not its token's market, ${CONDITION}`,
    });
    expect(placeOrder(state, bob, named(CONDITION), 10)).toMatchObject({ success: true });
    expectConserved(state);
  });

  it('refuses the same order twice', () => {
    const order = anOrder(bob, { side: 'BUY', price: '0.40', size: '5' });
    expect(placeOrder(state, bob, order, 10).success).toBe(true);
    const held = balanceOf(state, bob, COLLATERAL);
    expect(held).toEqual({ available: 98_000_000, reserved: 2_000_000 });
    expect(placeOrder(state, bob, order, 11)).toMatchObject({ code: 'INVALID_ORDER_DUPLICATED', errorMsg: `order ${order.orderId} is invalid. Duplicated.` });
    expect(balanceOf(state, bob, COLLATERAL)).toEqual(held);
    expectConserved(state);
  });

  it('refuses an order whose owner or signer is not the caller', () => {
    const order = anOrder(bob, { side: 'BUY', price: '0.40', size: '5' });
    expect(placeOrder(state, alice, order, 10).errorMsg).toBe('the order owner has to be the owner of the API KEY');
    const forged = { ...order, signer: alice.address };
    expect(placeOrder(state, bob, forged, 10).errorMsg).toBe('the order signer address has to be the address of the API KEY');
  });

  it("takes an owner in upper case as the caller's key, as the L2 header's key is read", () => {
    const order = anOrder(bob, { side: 'BUY', price: '0.40', size: '5' });
    const shouting = { ...order, submission: { ...order.submission, owner: bob.apiKey.toUpperCase() } };
    expect(placeOrder(state, bob, shouting, 10)).toMatchObject({ success: true, status: 'live' });
  });

  it('says that signature types 1 and 2 are not supported, even when the signer is the caller', () => {
    for (const signatureType of [1, 2]) {
      const order = anOrder(bob, { side: 'BUY', price: '0.40', size: '5' });
      const proxied = { ...order, submission: { ...order.submission, order: { ...order.submission.order, signatureType } } };
      expect(placeOrder(state, bob, proxied, 10)).toMatchObject({
        success: false,
        errorMsg: 'signature types 1 (proxy) and 2 (Safe) are not supported: sign as 0 (EOA) or 3 (deposit wallet)',
      });
    }
  });

  it('takes a deposit wallet\'s (type 3) order only from the owner the operator bound the wallet to', () => {
    const wallet = traderOf(3).address;
    fund(state, { apiKey: 'none', address: wallet }, '100');
    // Bob's key, Bob's signature in the envelope, the wallet as signer and maker.
    const forWallet = () => aWalletOrder(bob, wallet, { side: 'BUY', price: '0.40', size: '5' });
    const before = JSON.stringify(state.ledger.get(wallet.toLowerCase(), COLLATERAL));
    // Unbound (before, this spent the wallet's balance: anybody could name any address as its wallet), or bound to another owner.
    const notBobs = `the order maker ${wallet.toLowerCase()} is not a deposit wallet of the API KEY's address: type 3 orders are made by the wallet the operator bound to it (POST /admin/wallets)`;
    expect(placeOrder(state, bob, forWallet(), 10)).toMatchObject({ success: false, errorMsg: notBobs });
    state.wallets.bind(wallet.toLowerCase(), alice.address.toLowerCase());
    expect(placeOrder(state, bob, forWallet(), 10)).toMatchObject({ success: false, errorMsg: notBobs });
    // Bob's own address as the wallet: the signer is the key's address, so the wallet is what is wrong.
    const own = bob.address.toLowerCase();
    expect(placeOrder(state, bob, aWalletOrder(bob, bob.address, { side: 'BUY', price: '0.40', size: '5' }), 10).errorMsg).toBe(
      `the order maker ${own} is not a deposit wallet of the API KEY's address: type 3 orders are made by the wallet the operator bound to it (POST /admin/wallets)`,
    );
    // Someone else's signature in the envelope is still the signer's fault.
    expect(placeOrder(state, alice, { ...forWallet(), submission: { ...forWallet().submission, owner: alice.apiKey } }, 10).errorMsg).toBe(
      'the order signer address has to be the address of the API KEY',
    );
    expect(JSON.stringify(state.ledger.get(wallet.toLowerCase(), COLLATERAL))).toBe(before);
    // A wallet's owner does not change, so the bound case is another exchange's.
    const bound = newEngine();
    fund(bound, { apiKey: 'none', address: wallet }, '100');
    bound.wallets.bind(wallet.toLowerCase(), bob.address.toLowerCase());
    expect(placeOrder(bound, bob, forWallet(), 10)).toMatchObject({ success: true, status: 'live' });
    expect(bound.ledger.get(wallet.toLowerCase(), COLLATERAL).reserved).toBe(2_000_000);
  });

  it('refuses orders on a closed, paused or resolved market', () => {
    const closed = newEngine(undefined, { acceptingOrders: false });
    fund(closed, bob, '10');
    // Upstream's text, which clients compare, whatever the reason (it said "closed" of a paused market, then listed the reasons).
    expect(placeOrder(closed, bob, anOrder(bob, { side: 'BUY', price: '0.40', size: '5' }), 1)).toMatchObject({
      code: 'MARKET_NOT_READY',
      errorMsg: 'the market is not yet ready to process new orders',
    });
    expect(balanceOf(closed, bob, YES).available).toBe(0);
  });
});
