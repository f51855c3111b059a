import { randomUUID } from 'node:crypto';
import { ApiKeyCache, type ActiveApiKey } from '../../src/auth/api-key-cache';

const aKey = (): ActiveApiKey => ({ apiKey: randomUUID(), address: `0x${'ab'.repeat(20)}`, hmacKey: Buffer.from('secret'), passphrase: Buffer.from('pass') });

/** The keys the gateway may use while its database cannot be read (api-keys.service.ts). */
describe('ApiKeyCache: keys known while the database is unavailable', () => {
  it('holds a key read from the database, and caches it again when used', () => {
    const cache = new ApiKeyCache();
    const key = aKey();
    cache.set(key);
    expect(cache.knownWhileUnavailable(key.apiKey)).toBe(key);
    expect(cache.get(key.apiKey)).toBe(key);
    expect(cache.knownWhileUnavailable(randomUUID())).toBeUndefined();
  });

  it.each([
    ['revoked (here, or by another process told over NATS)', (cache: ApiKeyCache, apiKey: string) => cache.setRevoked(apiKey)],
    ['found absent by a later read', (cache: ApiKeyCache, apiKey: string) => cache.setAbsent(apiKey)],
    ['asked to be revoked, whatever its write answers', (cache: ApiKeyCache, apiKey: string) => cache.forgetKnown(apiKey)],
  ])('never falls back on a key %s', (_how, forget) => {
    const cache = new ApiKeyCache();
    const key = aKey();
    cache.set(key);
    forget(cache, key.apiKey);
    expect(cache.knownWhileUnavailable(key.apiKey)).toBeUndefined();
  });
});
