import { ORDER_V2_TYPED_DATA_TYPES, type OrderV2 } from '../../src/order-v2';

/** The V2 order struct as viem/ethers typed data (mutable, as their signatures want). */
export const ORDER_TYPES = { Order: ORDER_V2_TYPED_DATA_TYPES.Order.map((field) => ({ ...field })) };

export const ZERO32 = '0x' + '0'.repeat(64);

export function sampleOrder(change: Partial<OrderV2> = {}): OrderV2 {
  return {
    salt: 479249096354,
    maker: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    signer: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
    tokenId: '71321045679252212594626385532706912750332728571942532289631379312455583992563',
    makerAmount: '5200000',
    takerAmount: '10000000',
    side: 'BUY',
    signatureType: 0,
    timestamp: '1710000000000',
    metadata: ZERO32,
    builder: '0x' + 'ab'.repeat(32),
    ...change,
  };
}
