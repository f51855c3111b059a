import { deriveApiCredentials } from '../src/credentials';

const SECRET = Buffer.from('a server secret of at least 32 bytes, for tests');
const ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

describe('deriveApiCredentials', () => {
  it('has the upstream formats: a UUID v4 key, a 32-byte base64 secret, a 64-hex passphrase', () => {
    const creds = deriveApiCredentials(SECRET, ADDRESS, 0);
    expect(creds.apiKey).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(creds.secret).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(creds.secret, 'base64')).toHaveLength(32);
    expect(creds.passphrase).toMatch(/^[0-9a-f]{64}$/);
  });

  it('is deterministic in (address in any case, nonce)', () => {
    const creds = deriveApiCredentials(SECRET, ADDRESS, 0);
    expect(deriveApiCredentials(SECRET, ADDRESS.toLowerCase(), 0n)).toEqual(creds);
    expect(deriveApiCredentials(Buffer.from(SECRET), ADDRESS.toUpperCase().replace('0X', '0x'), '0')).toEqual(creds);
  });

  it('gives unrelated credentials for another nonce, address or server secret', () => {
    const creds = deriveApiCredentials(SECRET, ADDRESS, 0);
    const others = [
      deriveApiCredentials(SECRET, ADDRESS, 1),
      deriveApiCredentials(SECRET, '0x70997970C51812dc3A010C7d01b50e0d17dc79C8', 0),
      deriveApiCredentials(Buffer.from('another server secret of at least 32 bytes'), ADDRESS, 0),
    ];
    for (const other of others) {
      expect(other.apiKey).not.toBe(creds.apiKey);
      expect(other.secret).not.toBe(creds.secret);
      expect(other.passphrase).not.toBe(creds.passphrase);
    }
    expect(new Set([creds.apiKey, creds.secret, creds.passphrase].map((v) => v.slice(0, 8))).size).toBe(3);
  });

  it('refuses a bad address, nonce or short server secret', () => {
    expect(() => deriveApiCredentials(SECRET, '0x12', 0)).toThrow('not an address');
    expect(() => deriveApiCredentials(SECRET, ADDRESS, -1)).toThrow('nonce');
    expect(() => deriveApiCredentials(Buffer.from('short'), ADDRESS, 0)).toThrow('32 bytes');
  });
});
