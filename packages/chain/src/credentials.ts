import { createHmac } from 'node:crypto';
import { isAddress } from './address';
import { toUint } from './eip712';

/** What L1 authentication hands out: the L2 credentials of one (address, nonce). */
export interface ApiCredentials {
  /** UUID (version-4 format). */
  apiKey: string;
  /** Standard base64 with padding, 32 bytes (the upstream TS client decodes it with `atob`). */
  secret: string;
  /** 64 lower-case hex characters. */
  passphrase: string;
}

function derive(serverSecret: Buffer, purpose: string, address: string, nonce: bigint): Buffer {
  return createHmac('sha256', serverSecret).update(`exchange-api-credentials\0${purpose}\0${address}\0${nonce}`).digest();
}

function uuidV4From(bytes: Buffer): string {
  const b = Buffer.from(bytes.subarray(0, 16));
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Deterministic credentials: the same server secret, address (in any case) and nonce always give the
 * same key, secret and passphrase; another server secret gives unrelated ones. Each part comes from its
 * own HMAC, so knowing one part tells nothing about the others.
 */
export function deriveApiCredentials(serverSecret: Buffer, address: string, nonce: bigint | number | string): ApiCredentials {
  if (!isAddress(address)) throw new Error(`not an address: ${address}`);
  if (serverSecret.length < 32) throw new Error('the server secret must be at least 32 bytes');
  const owner = address.toLowerCase();
  const n = toUint(nonce, 'nonce');
  return {
    apiKey: uuidV4From(derive(serverSecret, 'api-key', owner, n)),
    secret: derive(serverSecret, 'secret', owner, n).toString('base64'),
    passphrase: derive(serverSecret, 'passphrase', owner, n).toString('hex'),
  };
}
