import { readOrderTerms, type SignedOrder } from '../src';

const market = { tickSize: 10_000, minOrderSize: 5_000_000 };
const order = (makerAmount: string, takerAmount: string): SignedOrder => ({
  salt: 1,
  maker: `0x${'1'.repeat(40)}`,
  signer: `0x${'1'.repeat(40)}`,
  tokenId: '1',
  makerAmount,
  takerAmount,
  side: 'BUY',
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
});
