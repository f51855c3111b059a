import { isAddress, toChecksumAddress } from '../src/address';
import { keccak256, toHex, uint256 } from '../src/keccak';

describe('toChecksumAddress', () => {
  // Test vectors from EIP-55.
  it.each([
    '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed',
    '0xfB6916095ca1df60bB79Ce92cE3Ea74c37c5d359',
    '0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB',
    '0xD1220A0cf47c7B9Be7A2E6BA89F429762e7b9aDb',
  ])('encodes %s', (expected) => {
    expect(toChecksumAddress(expected.toLowerCase())).toBe(expected);
    expect(toChecksumAddress(expected.toUpperCase().replace('0X', '0x'))).toBe(expected);
  });

  it('refuses what is not an address', () => {
    expect(isAddress('0x123')).toBe(false);
    expect(() => toChecksumAddress('0xzz' + '0'.repeat(38))).toThrow('not an address');
  });
});

describe('keccak256', () => {
  it('hashes the empty string to the known digest', () => {
    expect(toHex(keccak256(new Uint8Array()))).toBe('0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470');
  });

  it('encodes uint256 big-endian in 32 bytes', () => {
    expect(toHex(uint256(2n))).toBe('0x' + '0'.repeat(63) + '2');
  });
});
