import { signedOrder } from '../src';

const ZERO = `0x${'0'.repeat(64)}`;
const order = {
  salt: 1,
  maker: `0x${'1'.repeat(40)}`,
  signer: `0x${'1'.repeat(40)}`,
  tokenId: '123',
  makerAmount: '2000000',
  takerAmount: '5000000',
  side: 'BUY',
  signatureType: 0,
  timestamp: '1710000000000',
  signature: `0x${'ab'.repeat(65)}`,
};

describe('the signed order as clients send it', () => {
  it('reads an unused metadata or builder, absent or written as "" (upstream API example), as the zero hash it was signed with', () => {
    expect(signedOrder.parse(order)).toMatchObject({ metadata: ZERO, builder: ZERO });
    expect(signedOrder.parse({ ...order, metadata: '', builder: '' })).toMatchObject({ metadata: ZERO, builder: ZERO });
    const code = `0x${'cd'.repeat(32)}`;
    expect(signedOrder.parse({ ...order, builder: code }).builder).toBe(code);
  });

  it.each(['0x', '0x00', ' ', `0x${'g'.repeat(64)}`])('refuses the bytes32 %j', (builder) => {
    expect(signedOrder.safeParse({ ...order, builder }).success).toBe(false);
  });
});
