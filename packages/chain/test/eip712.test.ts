import { TypedDataEncoder } from 'ethers';
import { hashTypedData, keccak256 as viemKeccak, toHex as viemHex } from 'viem';
import { domainSeparator, toUint } from '../src/eip712';
import { toHex } from '../src/keccak';
import {
  EXCHANGE_V2_CONTRACTS,
  hashOrderV2,
  ORDER_V2_TYPE,
  ORDER_V2_TYPEHASH,
  orderV2StructHash,
  type OrderV2,
} from '../src/order-v2';
import { clobAuthDigest, CLOB_AUTH_MESSAGE } from '../src/clob-auth';
import { ORDER_TYPES, sampleOrder } from './support/orders';

describe('EIP-712 hashing', () => {
  it('has the V2 order typehash of the exchange contract', () => {
    expect(toHex(ORDER_V2_TYPEHASH)).toBe('0xbb86318a2138f5fa8ae32fbe8e659f8fcf13cc6ae4014a707893055433818589');
    expect(toHex(ORDER_V2_TYPEHASH)).toBe(viemKeccak(viemHex(ORDER_V2_TYPE)));
  });

  it('computes domain separators as ethers does, with and without a verifying contract', () => {
    const withContract = { name: 'Polymarket CTF Exchange', version: '2', chainId: 137, verifyingContract: EXCHANGE_V2_CONTRACTS.standard };
    expect(toHex(domainSeparator(withContract))).toBe(TypedDataEncoder.hashDomain(withContract));
    const clobAuth = { name: 'ClobAuthDomain', version: '1', chainId: 137 };
    expect(toHex(domainSeparator(clobAuth))).toBe(TypedDataEncoder.hashDomain(clobAuth));
  });

  it.each([
    ['standard', 137, EXCHANGE_V2_CONTRACTS.standard],
    ['neg-risk', 137, EXCHANGE_V2_CONTRACTS.negRisk],
    ['amoy', 80002, EXCHANGE_V2_CONTRACTS.standard],
  ])('hashes orders as viem and ethers do (%s)', (_label, chainId, verifyingContract) => {
    for (const order of [sampleOrder(), sampleOrder({ side: 'SELL', signatureType: 3, salt: 0, tokenId: (2n ** 256n - 1n).toString() })]) {
      const domain = { name: 'Polymarket CTF Exchange', version: '2', chainId, verifyingContract: verifyingContract as `0x${string}` };
      const message = { ...order, side: order.side === 'BUY' ? 0 : 1 };
      const expected = hashTypedData({ domain, types: ORDER_TYPES, primaryType: 'Order', message: message as never });
      expect(hashOrderV2(order, { chainId, verifyingContract })).toBe(expected);
      expect(TypedDataEncoder.hash(domain, ORDER_TYPES, message)).toBe(expected);
      expect(toHex(orderV2StructHash(order))).toBe(TypedDataEncoder.hashStruct('Order', ORDER_TYPES, message));
    }
  });

  it('refuses malformed order fields', () => {
    const domain = { chainId: 137, verifyingContract: EXCHANGE_V2_CONTRACTS.standard };
    const bad: Partial<Record<keyof OrderV2, unknown>>[] = [
      { salt: -1 },
      { salt: 1.5 },
      { tokenId: '0x10' },
      { tokenId: (2n ** 256n).toString() },
      { makerAmount: '' },
      { maker: '0x123' },
      { signer: 'f39fd6e51aad88f6f4ce6ab8827279cfffb92266' },
      { side: 'buy' },
      { signatureType: 256 },
      { metadata: '0x00' },
      { builder: '' },
    ];
    for (const change of bad) expect(() => hashOrderV2({ ...sampleOrder(), ...change } as OrderV2, domain)).toThrow();
  });

  it('hashes ClobAuth as viem does', () => {
    const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';
    const expected = hashTypedData({
      domain: { name: 'ClobAuthDomain', version: '1', chainId: 137 },
      types: {
        ClobAuth: [
          { name: 'address', type: 'address' },
          { name: 'timestamp', type: 'string' },
          { name: 'nonce', type: 'uint256' },
          { name: 'message', type: 'string' },
        ],
      },
      primaryType: 'ClobAuth',
      message: { address, timestamp: '1700000000', nonce: 5n, message: CLOB_AUTH_MESSAGE },
    });
    expect(clobAuthDigest({ address, timestamp: 1700000000, nonce: 5, chainId: 137 })).toBe(expected);
    expect(clobAuthDigest({ address: address.toLowerCase(), timestamp: '1700000000', nonce: '5', chainId: 137n })).toBe(expected);
  });

  it('reads uints from decimal strings, safe integers and bigints only', () => {
    expect(toUint('0012', 'x')).toBe(12n);
    expect(toUint(12, 'x')).toBe(12n);
    expect(() => toUint('1e3', 'x')).toThrow();
    expect(() => toUint(2 ** 60, 'x')).toThrow();
    expect(() => toUint(256, 'x', 8)).toThrow('uint8');
  });
});
