import { parseHex } from '../src/hex';
import { concatBytes, fromHex, toHex, uint256 } from '../src/keccak';

describe('hex and word encoding', () => {
  it('parses strict hex, with or without 0x, and refuses anything else', () => {
    expect(toHex(parseHex('0x00ff10')!)).toBe('0x00ff10');
    expect(toHex(parseHex('ABcd')!)).toBe('0xabcd');
    expect(parseHex('0x')!.length).toBe(0);
    expect(parseHex('0xabc')).toBeNull();
    expect(parseHex('0xzz')).toBeNull();
    expect(parseHex('0xab cd')).toBeNull();
    expect(parseHex('0x0x12')).toBeNull();
    expect(parseHex('0x' + '11'.repeat(20), 20)!.length).toBe(20);
    expect(parseHex('0x' + '11'.repeat(19), 20)).toBeNull();
  });

  it('encodes uint256 words on both sides of 64 bits', () => {
    for (const value of [0n, 1n, 2n ** 64n - 1n, 2n ** 64n, 2n ** 200n + 12345n, 2n ** 256n - 1n]) {
      const word = uint256(value);
      expect(word.length).toBe(32);
      expect(BigInt(toHex(word))).toBe(value);
    }
  });

  it('decodes and concatenates bytes', () => {
    expect(toHex(fromHex('0x0102'))).toBe('0x0102');
    expect(toHex(fromHex('0304'))).toBe('0x0304');
    expect(toHex(concatBytes(fromHex('0x01'), uint256(2n).subarray(30)))).toBe('0x010002');
  });
});
