import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Encryption at rest of API secrets and passphrases: AES-256-GCM, stored as iv ‖ ciphertext ‖ tag. The
 * API key is the additional authenticated data, so a ciphertext moved to another row does not decrypt.
 */
export class CredentialCipher {
  constructor(private readonly key: Buffer) {
    if (key.length !== 32) throw new Error('CREDENTIALS_KEY must be 32 bytes');
  }

  encrypt(plaintext: string, apiKey: string): Buffer {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    cipher.setAAD(Buffer.from(apiKey, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]);
  }

  /** Throws when the data was not encrypted with this key for this API key. */
  decrypt(stored: Uint8Array, apiKey: string): string {
    const data = Buffer.from(stored);
    if (data.length < IV_BYTES + TAG_BYTES) throw new Error('encrypted credential is truncated');
    const decipher = createDecipheriv('aes-256-gcm', this.key, data.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(apiKey, 'utf8'));
    decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
    return Buffer.concat([decipher.update(data.subarray(IV_BYTES, data.length - TAG_BYTES)), decipher.final()]).toString('utf8');
  }
}
