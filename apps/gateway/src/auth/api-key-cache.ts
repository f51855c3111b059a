import { LRUCache } from 'lru-cache';

/** What the L2 check needs of a key, decrypted once per cache fill. */
export interface ActiveApiKey {
  apiKey: string;
  /** Lower-case 0x address the key belongs to. */
  address: string;
  /** The base64-decoded secret: the HMAC key. */
  hmacKey: Buffer;
  passphrase: Buffer;
}

/** How every API key the exchange hands out looks (a lower-case UUID): anything else is known absent without a lookup. */
export const API_KEY_SHAPE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A key that is unknown or revoked. */
const ABSENT = Object.freeze({ absent: true as const });
type Entry = ActiveApiKey | typeof ABSENT;

/**
 * In-process cache of API keys, so that an authenticated request costs no database round trip on the hot
 * path. Known keys stay for POSITIVE_TTL_MS, unknown or revoked ones for NEGATIVE_TTL_MS (so a flood of
 * made-up keys does not reach the database either, while a key created by another gateway instance
 * works within a moment). A revoke takes effect at once in every instance (KeyRevocations), or within
 * POSITIVE_TTL_MS in one that missed the message (KNOWN_WHILE_UNAVAILABLE_MS while the database is down).
 */
export class ApiKeyCache {
  static readonly POSITIVE_TTL_MS = 10_000;
  static readonly NEGATIVE_TTL_MS = 2_000;
  /** How long a key read from the database may still be used while the database cannot be read. */
  static readonly KNOWN_WHILE_UNAVAILABLE_MS = 120_000;

  private readonly entries = new LRUCache<string, Entry>({ max: 100_000, ttl: ApiKeyCache.POSITIVE_TTL_MS });
  /**
   * The keys read in the last KNOWN_WHILE_UNAVAILABLE_MS, for `activeKey` when the database cannot be
   * read: a probe that took every PostgreSQL connection saw every signed request refused 503 ten seconds
   * in, orders and reads the engine could still serve included. A key revoked or found absent leaves it.
   */
  private readonly known = new LRUCache<string, ActiveApiKey>({ max: 100_000, ttl: ApiKeyCache.KNOWN_WHILE_UNAVAILABLE_MS });

  /** The key, null when known to be absent, undefined when not cached. */
  get(apiKey: string): ActiveApiKey | null | undefined {
    const entry = this.entries.get(apiKey);
    if (entry === undefined) return undefined;
    return 'absent' in entry ? null : entry;
  }

  /** Whether the key's lookup needs no database read: cached (known or absent), or not a key's shape. */
  answersAlone(apiKey: string): boolean {
    return this.entries.has(apiKey) || !API_KEY_SHAPE.test(apiKey);
  }

  set(key: ActiveApiKey): void {
    this.entries.set(key.apiKey, key);
    this.known.set(key.apiKey, key);
  }

  setAbsent(apiKey: string): void {
    this.entries.set(apiKey, ABSENT, { ttl: ApiKeyCache.NEGATIVE_TTL_MS });
    this.known.delete(apiKey);
  }

  /**
   * A key read from the database in the last KNOWN_WHILE_UNAVAILABLE_MS and neither revoked nor found
   * absent since. Used, it is cached again for NEGATIVE_TTL_MS only (the `known` time stays the read's),
   * so that an outage is not asked about by every request.
   */
  knownWhileUnavailable(apiKey: string): ActiveApiKey | undefined {
    const key = this.known.get(apiKey);
    if (key !== undefined) this.entries.set(apiKey, key, { ttl: ApiKeyCache.NEGATIVE_TTL_MS });
    return key;
  }

  /** A revoke asked for: never used from `known` again, whether or not its write is answered. */
  forgetKnown(apiKey: string): void {
    this.known.delete(apiKey);
  }

  /**
   * A key revoked: absent for KNOWN_WHILE_UNAVAILABLE_MS, so that a read of its row that began before the
   * revoke and ends within that time (a slow database) does not put it back (a revoked key never comes
   * back: its (address, nonce) stays revoked).
   */
  setRevoked(apiKey: string): void {
    this.entries.set(apiKey, ABSENT, { ttl: ApiKeyCache.KNOWN_WHILE_UNAVAILABLE_MS });
    this.known.delete(apiKey);
  }
}
