import { Injectable, Logger } from '@nestjs/common';
import { decodeSecret, deriveApiCredentials, type ApiCredentials } from '@exchange/chain';
import { DistinctFailures, errorMessage, isDatabaseUnavailable, recoveryLine } from '@exchange/service-kit';
import { ApiError } from '../http/api-error';
import type { ApiCaller, L1Signer } from './api-caller';
import { API_KEY_SHAPE, type ActiveApiKey } from './api-key-cache';
import { ApiKeyRepository, type ApiKeyRow } from './api-key.repository';
import { AuthResources } from './auth-resources';

/**
 * Decision: the most keys an address may hold at once (docs/auth.md, "L1"). Each costs a row, two
 * encryptions and a signature check to make, and nonces are unbounded: a probe made 60 in 0.45 s.
 * Concurrent creates may pass it by a few; the count is a bound on growth, not an exact quota.
 */
export const MAX_API_KEYS_PER_ADDRESS = 100;

const logger = new Logger('ApiKeysService');

/**
 * API credentials: handed out to an L1-authenticated wallet per (address, nonce), listed and revoked
 * by their L2-authenticated owner, and looked up (through the cache) by the L2 check.
 */
@Injectable()
export class ApiKeysService {
  /**
   * Reads of keys missing from the cache, by key, while they run: when a busy key's entry expires, every
   * request of that moment waits for one read instead of each making its own (under order load, dozens
   * of reads and decryptions at once stalled the gateway for about 400 ms every 10 s).
   */
  private readonly reading = new Map<string, Promise<ActiveApiKey | null>>();
  /**
   * A database outage met by key reads, said once per distinct failure as a warning (the L2 check
   * answers each such request 503): it logged an error with a stack per request, 4,049 lines in a
   * chaos probe's outages.
   */
  private readonly databaseDown = new DistinctFailures(
    (message) => logger.warn(`api key reads failing, the database is unavailable: ${message}`),
    (recovery) => logger.log(recoveryLine('api key reads succeed', recovery)),
  );

  constructor(
    private readonly resources: AuthResources,
    private readonly keys: ApiKeyRepository,
  ) {}

  /**
   * The credentials of (address, nonce), created on first use. `POST /auth/api-key` and
   * `GET /auth/derive-api-key` both answer them, so that create, derive and createOrDerive of the
   * stock clients all work (docs/auth.md). A revoked (address, nonce) stays revoked: another nonce
   * gives new credentials.
   */
  async credentialsFor(signer: L1Signer, action: 'create' | 'derive'): Promise<ApiCredentials> {
    const prefix = action === 'create' ? 'Could not create api key:' : 'Could not derive api key!';
    let row = await this.keys.findByAddressAndNonce(signer.address, signer.nonce);
    if (!row) {
      if ((await this.keys.countActive(signer.address)) >= MAX_API_KEYS_PER_ADDRESS) {
        throw ApiError.of('too_many_api_keys', `${prefix} this address holds ${MAX_API_KEYS_PER_ADDRESS} API keys, the most it may; delete one (DELETE /auth/api-key) first`);
      }
      const derived = deriveApiCredentials(this.resources.settings.serverSecret, signer.address, BigInt(signer.nonce));
      const inserted = await this.keys.insert({
        apiKey: derived.apiKey,
        address: signer.address,
        nonce: signer.nonce,
        secretEncrypted: this.resources.cipher.encrypt(derived.secret, derived.apiKey),
        passphraseEncrypted: this.resources.cipher.encrypt(derived.passphrase, derived.apiKey),
      });
      // Lost a race with a concurrent request for the same (address, nonce): answer what it stored.
      row = inserted ? null : await this.keys.findByAddressAndNonce(signer.address, signer.nonce);
      if (!row) return derived;
    }
    if (row.revokedAt) {
      throw ApiError.of('nonce_already_used', `${prefix} the key of this address and nonce was deleted; sign with another nonce`);
    }
    // Not cached here: a delete in between would be overwritten by this older read, and the key would
    // work on for the cache's lifetime. The first signed request reads it (read() checks for that).
    return this.decrypt(row);
  }

  /** `{ apiKeys: [uuid, ...] }`: the caller's keys that are not revoked (docs/auth.md on the shape). */
  async list(caller: ApiCaller): Promise<{ apiKeys: string[] }> {
    return { apiKeys: await this.keys.listActive(caller.address) };
  }

  /** Revokes the key the request was signed with; effective at once in every gateway process (`AuthResources.revoked`). */
  async revoke(caller: ApiCaller): Promise<string> {
    // Before the write: one committed but unanswered (a lost connection) must not leave the key usable
    // through an outage.
    this.resources.cache.forgetKnown(caller.apiKey);
    await this.keys.revoke(caller.apiKey, new Date());
    this.resources.revoked(caller.apiKey);
    return 'OK';
  }

  /** The key as the L2 check needs it, or null when unknown or revoked; from the cache when it can. */
  async activeKey(apiKey: string): Promise<ActiveApiKey | null> {
    const cached = this.resources.cache.get(apiKey);
    if (cached !== undefined) return cached;
    if (!API_KEY_SHAPE.test(apiKey)) return null;
    let reading = this.reading.get(apiKey);
    if (!reading) {
      reading = this.read(apiKey).finally(() => this.reading.delete(apiKey));
      this.reading.set(apiKey, reading);
    }
    return reading;
  }

  private async read(apiKey: string): Promise<ActiveApiKey | null> {
    let row;
    try {
      row = await this.keys.findByKey(apiKey);
      this.databaseDown.cleared();
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      this.databaseDown.failed(lastLineOf(error));
      // A restart or a server out of connections should not refuse every signed request of a known key.
      const known = this.resources.cache.knownWhileUnavailable(apiKey);
      if (known === undefined) throw error;
      return known;
    }
    // Whatever the cache learned meanwhile (a revoke in this process) is newer than this row.
    const meanwhile = this.resources.cache.get(apiKey);
    if (meanwhile !== undefined) return meanwhile;
    if (!row || row.revokedAt) {
      this.resources.cache.setAbsent(apiKey);
      return null;
    }
    const { secret, passphrase } = this.decrypt(row);
    return this.remember(row.apiKey, row.address, secret, passphrase);
  }

  private decrypt(row: ApiKeyRow): ApiCredentials {
    const { cipher } = this.resources;
    return {
      apiKey: row.apiKey,
      secret: cipher.decrypt(row.secretEncrypted, row.apiKey),
      passphrase: cipher.decrypt(row.passphraseEncrypted, row.apiKey),
    };
  }

  private remember(apiKey: string, address: string, secret: string, passphrase: string): ActiveApiKey {
    const key = { apiKey, address, hmacKey: decodeSecret(secret), passphrase: Buffer.from(passphrase, 'utf8') };
    this.resources.cache.set(key);
    return key;
  }
}

/** The last non-empty line of an error's message: Prisma's begin with the call and end with the cause. */
function lastLineOf(error: unknown): string {
  const lines = errorMessage(error).split('\n').filter((line) => line.trim() !== '');
  return lines.at(-1)?.trim() ?? String(error);
}
