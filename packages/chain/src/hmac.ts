import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * L2 authentication: HMAC-SHA256 over `timestamp + method + requestPath + body` with the base64-decoded
 * API secret, sent url-safe base64 encoded with `=` padding (what the upstream clients produce). The
 * method is used as given (HTTP methods are upper-case; the clients do not change its case either).
 */

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** Decodes a base64 secret in either alphabet, padded or not. */
export function decodeSecret(secretBase64: string): Buffer {
  if (!BASE64.test(secretBase64)) throw new Error('the API secret is not base64');
  return Buffer.from(secretBase64.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
}

/** The raw 32-byte HMAC; `key` is the decoded secret (or the base64 secret itself). */
export function l2SignatureBytes(
  key: Buffer | string,
  timestamp: string | number,
  method: string,
  requestPath: string,
  body?: string,
): Buffer {
  const hmac = createHmac('sha256', typeof key === 'string' ? decodeSecret(key) : key);
  hmac.update(`${timestamp}${method}${requestPath}`);
  if (body !== undefined) hmac.update(body);
  return hmac.digest();
}

/** The L2 signature header value: url-safe base64 of the HMAC, with `=` padding. */
export function l2Signature(secretBase64: string, timestamp: string | number, method: string, requestPath: string, body?: string): string {
  return l2SignatureBytes(secretBase64, timestamp, method, requestPath, body)
    .toString('base64')
    .replace(/\+/g, '-')
    .replace(/\//g, '_');
}

/**
 * The 32 bytes a signature header encodes, in either base64 alphabet, with or without padding; null
 * when it is not a canonical encoding of 32 bytes (so that one signature has exactly one accepted form
 * per alphabet and padding, and the replay check cannot be dodged by flipping unused bits).
 */
export function decodeL2Signature(signature: string): Buffer | null {
  if (signature.length !== 43 && signature.length !== 44) return null;
  if (!BASE64.test(signature)) return null;
  const bare = signature.endsWith('=') ? signature.slice(0, -1) : signature;
  if (bare.length !== 43 || bare.includes('=')) return null;
  const bytes = Buffer.from(bare.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
  if (bytes.length !== 32) return null;
  // The last character carries 2 unused bits: they must be zero in a canonical encoding.
  if (bytes.toString('base64url') !== bare.replace(/\+/g, '-').replace(/\//g, '_')) return null;
  return bytes;
}

/** Constant-time check of an L2 signature header. */
export function verifyL2Signature(
  secretBase64: string,
  timestamp: string | number,
  method: string,
  requestPath: string,
  body: string | undefined,
  signature: string,
): boolean {
  const given = decodeL2Signature(signature);
  if (!given) return false;
  return timingSafeEqual(given, l2SignatureBytes(secretBase64, timestamp, method, requestPath, body));
}
