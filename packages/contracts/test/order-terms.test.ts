import { amountDecimals, readOrderTerms, type SignedOrder } from '../src';

const market = { tickSize: 10_000, minOrderSize: 5_000_000 };
const order = (makerAmount: string, takerAmount: string, side: 'BUY' | 'SELL' = 'BUY'): SignedOrder => ({
  salt: 1,
  maker: `0x${'1'.repeat(40)}`,
  signer: `0x${'1'.repeat(40)}`,
  tokenId: '1',
  makerAmount,
  takerAmount,
  side,
  signatureType: 0,
  timestamp: '1',
  expiration: '0',
  metadata: `0x${'0'.repeat(64)}`,
  builder: `0x${'0'.repeat(64)}`,
  signature: '0x',
});

describe('order terms', () => {
  it('read a BUY into shares, collateral and price', () => {
    expect(readOrderTerms('0x1', order('4000000', '10000000'), false, market)).toEqual({ side: 'BUY', shares: 10_000_000, collateral: 4_000_000, price: 400_000 });
  });

  it('tell a zero amount from one too large to hold exactly', () => {
    expect(readOrderTerms('0x1', order('0', '10000000'), false, market)).toMatchObject({ message: 'invalid amounts: maker and taker amounts must be positive' });
    // 2^53 + 1 base units: it used to be refused as "must be positive".
    expect(readOrderTerms('0x1', order('4000000', '9007199254740993'), false, market)).toMatchObject({
      code: 'INVALID_ORDER_ERROR',
      message: 'invalid amounts: maker and taker amounts must be at most 9007199254740991 base units',
    });
  });

  it('give a collateral amount the decimals of the tick plus two, as upstream clients round', () => {
    expect([100_000, 10_000, 5_000, 2_500, 1_000, 100].map(amountDecimals)).toEqual([3, 4, 5, 6, 5, 6]);
  });

  it('take limit orders whose collateral is exact on a fine tick (5.01 shares at 0.123, as clob-client builds it)', () => {
    const fine = { tickSize: 1_000, minOrderSize: 5_000_000 };
    expect(readOrderTerms('0x1', order('616230', '5010000'), false, fine)).toEqual({ side: 'BUY', shares: 5_010_000, collateral: 616_230, price: 123_000 });
    expect(readOrderTerms('0x1', order('5010000', '616230', 'SELL'), false, fine)).toMatchObject({ side: 'SELL', price: 123_000 });
    // 5.01 at 0.1234 on a 0.0001 tick: six decimals of collateral.
    expect(readOrderTerms('0x1', order('618234', '5010000'), false, { tickSize: 100, minOrderSize: 5_000_000 })).toMatchObject({ price: 123_400 });
    // On a 0.01 tick the same order's price is off the grid, which is said before the amount's decimals
    // (a maker quoting at a tick the market left was told about decimals until the twenty-second session).
    expect(readOrderTerms('0x1', order('616230', '5010000'), false, market)).toMatchObject({
      code: 'INVALID_ORDER_MIN_TICK_SIZE',
      message: 'order 0x1 is invalid. Price (0.123) breaks minimum tick size rule: 0.01',
    });
    // A price off the grid by less than a base unit is shown with the digits that put it off (it read 0.1).
    expect(readOrderTerms('0x1', order('500001', '5000000'), false, { tickSize: 100, minOrderSize: 5_000_000 })).toMatchObject({
      message: 'order 0x1 is invalid. Price (0.1000002) breaks minimum tick size rule: 0.0001',
    });
    expect(readOrderTerms('0x1', order('4330000', '19690000'), false, market)).toMatchObject({
      message: 'order 0x1 is invalid. Price (0.219908583037074657) breaks minimum tick size rule: 0.01',
    });
    // Collateral with too many decimals and no exact price: the amounts' precision, with upstream's text.
    expect(readOrderTerms('0x1', order('1000001', '3000000'), false, market)).toMatchObject({
      message: 'invalid amounts, the buy orders maker amount supports a max accuracy of 4 decimals, taker amount a max of 2 decimals',
    });
    // A sixth decimal on a 0.001 tick is refused, with that tick's figure.
    expect(readOrderTerms('0x1', order('5010000', '616231', 'SELL'), false, fine)).toMatchObject({
      message: 'invalid amounts, the sell orders maker amount supports a max accuracy of 2 decimals, taker amount a max of 5 decimals',
    });
  });

  it("take a market order's taker amount to the tick's amount decimals", () => {
    const fine = { tickSize: 1_000, minOrderSize: 5_000_000 };
    // SELL 10 shares for at least 1.23456 (five decimals of collateral).
    expect(readOrderTerms('0x1', order('10000000', '1234560', 'SELL'), true, fine)).toMatchObject({ side: 'SELL', shares: 10_000_000, collateral: 1_234_560 });
    expect(readOrderTerms('0x1', order('10000000', '1234560', 'SELL'), true, market)).toMatchObject({
      message: 'invalid amounts, the market sell orders maker amount supports a max accuracy of 2 decimals, taker amount a max of 4 decimals',
    });
  });

  it("name a market BUY's minimum in dollars and a market SELL's in shares", () => {
    // $0.50 for at most 0.83 shares at a cap of 0.60.
    expect(readOrderTerms('0x1', order('500000', '830000'), true, market)).toMatchObject({
      code: 'INVALID_ORDER_MIN_SIZE',
      message: 'order 0x1 is invalid. Amount ($0.5) lower than the minimum: $1',
    });
    expect(readOrderTerms('0x1', order('1000000', '1660000'), true, market)).toMatchObject({ side: 'BUY', collateral: 1_000_000 });
    expect(readOrderTerms('0x1', order('4990000', '2000000', 'SELL'), true, market)).toMatchObject({
      code: 'INVALID_ORDER_MIN_SIZE',
      message: 'order 0x1 is invalid. Size (4.99) lower than the minimum: 5',
    });
  });
});
