import { privateKeyToAccount, sign } from 'viem/accounts';
import { keccak256 as viemKeccak, toHex as viemHex } from 'viem';
import { assertNativeKeccak, nativeKeccakLoadError } from '../src/keccak';
import { assertNativeSecp256k1, nativeSecp256k1LoadError, recoverAddress, tryRecoverAddress } from '../src/secp256k1';

// Publicly known development keys (hardhat/anvil accounts 0 and 1).
const KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80';
const ADDRESS = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

describe('secp256k1', () => {
  it('runs on the native addons (secp256k1 and keccak)', () => {
    expect(nativeSecp256k1LoadError()).toBeNull();
    expect(() => assertNativeSecp256k1()).not.toThrow();
    expect(nativeKeccakLoadError()).toBeNull();
    expect(() => assertNativeKeccak()).not.toThrow();
  });

  it('recovers the signer of a digest signed with viem, with v 27/28 or 0/1, hex or bytes', async () => {
    expect(privateKeyToAccount(KEY).address.toLowerCase()).toBe(ADDRESS);
    for (let i = 0; i < 8; i++) {
      const digest = viemKeccak(viemHex(`message ${i}`));
      const signature = await sign({ hash: digest, privateKey: KEY, to: 'hex' });
      expect(recoverAddress(digest, signature)).toBe(ADDRESS);
      const bytes = Buffer.from(signature.slice(2), 'hex');
      expect(recoverAddress(Buffer.from(digest.slice(2), 'hex'), bytes)).toBe(ADDRESS);
      bytes[64] = bytes[64]! - 27;
      expect(recoverAddress(digest, bytes)).toBe(ADDRESS);
    }
  });

  it('refuses malformed and malleable signatures', async () => {
    const digest = viemKeccak(viemHex('x'));
    const signature = await sign({ hash: digest, privateKey: KEY, to: 'hex' });
    expect(tryRecoverAddress(digest, signature.slice(0, -2))).toBeNull();
    expect(tryRecoverAddress(digest, signature + '00')).toBeNull();
    expect(tryRecoverAddress(digest, signature.slice(0, -2) + '1d')).toBeNull();
    expect(tryRecoverAddress(digest, 'zz' + signature.slice(4))).toBeNull();
    expect(tryRecoverAddress(digest.slice(0, -2), signature)).toBeNull();
    expect(tryRecoverAddress(digest, '0x' + '00'.repeat(64) + '1b')).toBeNull();
    expect(() => recoverAddress(digest, '0x1234')).toThrow('65 bytes');

    // The same signature with s' = n - s and the other v recovers the same key, and is refused (EIP-2).
    const s = BigInt('0x' + signature.slice(66, 130));
    const v = parseInt(signature.slice(130), 16);
    const twin = signature.slice(0, 66) + (N - s).toString(16).padStart(64, '0') + (v === 27 ? '1c' : '1b');
    expect(tryRecoverAddress(digest, twin)).toBeNull();
  });
});
