import { createHmac } from 'node:crypto';
import { createL2Headers } from '@polymarket/clob-client-v2';
import { createWalletClient, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { decodeL2Signature, l2Signature, verifyL2Signature } from '../src/hmac';

describe('L2 HMAC', () => {
  it('matches the py-clob-client test vector', () => {
    const secret = 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';
    const expected = 'ZwAdJKvoYRlEKDkNMwd5BuwNNtg93kNaR_oU2HrfVvc=';
    expect(l2Signature(secret, '1000000', 'test-sign', '/orders', '{"hash": "0x123"}')).toBe(expected);
    expect(verifyL2Signature(secret, '1000000', 'test-sign', '/orders', '{"hash": "0x123"}', expected)).toBe(true);
  });

  it('signs timestamp + METHOD + path + body with the decoded secret, url-safe base64 with padding', () => {
    const key = Buffer.from('an arbitrary 32-byte hmac key!!!');
    const expected = createHmac('sha256', key).update('1700000000POST/order{"a":1}').digest('base64').replace(/\+/g, '-').replace(/\//g, '_');
    for (const secret of [key.toString('base64'), key.toString('base64url'), key.toString('base64').replace(/=+$/, '')]) {
      expect(l2Signature(secret, 1700000000, 'POST', '/order', '{"a":1}')).toBe(expected);
    }
    expect(expected.endsWith('=')).toBe(true);
    // No body and an empty body sign the same message.
    expect(l2Signature(key.toString('base64'), 1, 'GET', '/x')).toBe(l2Signature(key.toString('base64'), 1, 'GET', '/x', ''));
  });

  it('verifies the L2 headers of the upstream TypeScript client', async () => {
    const signer = createWalletClient({
      account: privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'),
      transport: http('http://127.0.0.1:9'),
    });
    const creds = { key: '00000000-0000-4000-8000-000000000000', secret: Buffer.alloc(32, 7).toString('base64'), passphrase: 'p' };
    const body = JSON.stringify({ order: { salt: 1 }, owner: creds.key });
    const headers = await createL2Headers(signer, creds, { method: 'POST', requestPath: '/order', body }, 1700000000);
    expect(headers.POLY_TIMESTAMP).toBe('1700000000');
    expect(verifyL2Signature(creds.secret, headers.POLY_TIMESTAMP, 'POST', '/order', body, headers.POLY_SIGNATURE)).toBe(true);
    expect(verifyL2Signature(creds.secret, headers.POLY_TIMESTAMP, 'POST', '/order', body + ' ', headers.POLY_SIGNATURE)).toBe(false);
    expect(verifyL2Signature(creds.secret, headers.POLY_TIMESTAMP, 'DELETE', '/order', body, headers.POLY_SIGNATURE)).toBe(false);
    expect(verifyL2Signature(creds.secret, '1700000001', 'POST', '/order', body, headers.POLY_SIGNATURE)).toBe(false);
    expect(verifyL2Signature(Buffer.alloc(32, 8).toString('base64'), '1700000000', 'POST', '/order', body, headers.POLY_SIGNATURE)).toBe(false);
  });

  it('accepts the signature with or without padding, in either alphabet, and nothing else', () => {
    const secret = Buffer.alloc(32, 1).toString('base64');
    let found = false;
    // Find a signature that uses both alphabet-specific characters somewhere, to exercise the conversion.
    for (let t = 0; t < 200 && !found; t++) {
      const sig = l2Signature(secret, t, 'GET', '/auth/api-keys');
      if (!/[-_]/.test(sig)) continue;
      found = true;
      const standard = sig.replace(/-/g, '+').replace(/_/g, '/');
      for (const form of [sig, sig.slice(0, -1), standard, standard.slice(0, -1)]) {
        expect(verifyL2Signature(secret, t, 'GET', '/auth/api-keys', undefined, form)).toBe(true);
      }
      expect(decodeL2Signature(sig)!.equals(decodeL2Signature(standard.slice(0, -1))!)).toBe(true);
      // The last character carries two unused bits: a variant with them set is not canonical.
      const last = sig[42]!;
      const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
      // Flipping the lowest unused bit always changes the character (a SHA-256 leaves the last two bits unused).
      const variant = sig.slice(0, 42) + alphabet[alphabet.indexOf(last) ^ 1] + '=';
      expect(variant).not.toBe(sig);
      expect(verifyL2Signature(secret, t, 'GET', '/auth/api-keys', undefined, variant)).toBe(false);
      for (const bad of ['', sig + '=', sig.slice(0, -2), ' ' + sig, sig.replace(/.$/, '*'), sig.slice(0, 42) + '==']) {
        expect(verifyL2Signature(secret, t, 'GET', '/auth/api-keys', undefined, bad)).toBe(false);
      }
    }
    expect(found).toBe(true);
  });
});
