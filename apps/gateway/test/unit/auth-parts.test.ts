import { randomBytes } from 'node:crypto';
import { createL1Headers } from '@polymarket/clob-client-v2';
import { createWalletClient, http } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { ApiKeyCache } from '../../src/auth/api-key-cache';
import { authHeader, isFresh, timestampMs } from '../../src/auth/auth-headers';
import { CredentialCipher } from '../../src/auth/credential-cipher';
import { verifyL1Headers } from '../../src/auth/l1-auth.guard';

describe('auth headers', () => {
  it('reads SVC_ first, then POLY_, and ignores repeated headers', () => {
    expect(authHeader({ svc_address: 'a', poly_address: 'b' }, 'address')).toBe('a');
    expect(authHeader({ poly_address: 'b' }, 'address')).toBe('b');
    expect(authHeader({ poly_address: ['a', 'b'] }, 'address')).toBeUndefined();
  });

  it('reads 13-digit timestamps as milliseconds and shorter ones as seconds', () => {
    expect(timestampMs('1700000000')).toBe(1_700_000_000_000);
    expect(timestampMs('1700000000123')).toBe(1_700_000_000_123);
    for (const bad of [undefined, '', '17000000001234', '1.5', '-1', ' 1', '0x10']) expect(timestampMs(bad)).toBeNull();
    expect(isFresh('1700000030', 1_700_000_000_000, 30_000)).toBe(true);
    expect(isFresh('1700000031', 1_700_000_000_000, 30_000)).toBe(false);
    expect(isFresh('1699999969999', 1_700_000_000_000, 30_000)).toBe(false);
  });

  it('takes a timestamp in seconds for its whole second, so that its window is as long into the past as into the future', () => {
    // Late in a second: 30 s back was refused, 30 s ahead taken.
    const now = 1_700_000_000_900;
    expect(isFresh('1699999970', now, 30_000)).toBe(true);
    expect(isFresh('1700000030', now, 30_000)).toBe(true);
    expect(isFresh('1699999969', now, 30_000)).toBe(false);
    expect(isFresh('1700000031', now, 30_000)).toBe(false);
    // Early in a second as well.
    expect(isFresh('1699999970', 1_700_000_000_000, 30_000)).toBe(true);
    expect(isFresh('1699999969', 1_700_000_000_000, 30_000)).toBe(false);
  });
});

describe('CredentialCipher', () => {
  const cipher = new CredentialCipher(randomBytes(32));

  it('round-trips, with a fresh iv each time', () => {
    const a = cipher.encrypt('secret', 'key-1');
    const b = cipher.encrypt('secret', 'key-1');
    expect(a.equals(b)).toBe(false);
    expect(cipher.decrypt(a, 'key-1')).toBe('secret');
  });

  it('refuses another key, another row, and tampering', () => {
    const stored = cipher.encrypt('secret', 'key-1');
    expect(() => new CredentialCipher(randomBytes(32)).decrypt(stored, 'key-1')).toThrow();
    expect(() => cipher.decrypt(stored, 'key-2')).toThrow();
    const tampered = Buffer.from(stored);
    tampered[14] = tampered[14]! ^ 1;
    expect(() => cipher.decrypt(tampered, 'key-1')).toThrow();
    expect(() => cipher.decrypt(stored.subarray(0, 20), 'key-1')).toThrow('truncated');
    expect(() => new CredentialCipher(randomBytes(16))).toThrow('32 bytes');
  });
});

describe('verifyL1Headers', () => {
  const settings = { chainId: 137, maxSkewMs: 30_000, serverSecret: Buffer.alloc(32) };

  it('returns the lower-case signer and canonical nonce of fresh, valid headers', async () => {
    const account = privateKeyToAccount(generatePrivateKey());
    const signer = createWalletClient({ account, transport: http('http://127.0.0.1:9') });
    const headers = await createL1Headers(signer, 137, 7, 1_700_000_000);
    const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    expect(verifyL1Headers(lower, settings, 1_700_000_010_000)).toEqual({ address: account.address.toLowerCase(), nonce: '7' });
    expect(verifyL1Headers(lower, settings, 1_700_000_031_000)).toBeNull();
    expect(verifyL1Headers({ ...lower, poly_nonce: '007' }, settings, 1_700_000_000_000)).toEqual({ address: account.address.toLowerCase(), nonce: '7' });
    expect(verifyL1Headers(lower, { ...settings, chainId: 80002 }, 1_700_000_000_000)).toBeNull();
  });
});

describe('ApiKeyCache', () => {
  it('keeps a revoked key absent as long as a known key is kept, an unknown one only briefly', async () => {
    const cache = new ApiKeyCache();
    const [unknown, revoked] = ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'];
    cache.setAbsent(unknown);
    cache.setRevoked(revoked);
    await new Promise((resolve) => setTimeout(resolve, ApiKeyCache.NEGATIVE_TTL_MS + 200));
    // A read of the revoked key's row begun before the revoke, ending now, must still meet the revoke.
    expect(cache.get(unknown)).toBeUndefined();
    expect(cache.get(revoked)).toBeNull();
  });
});
