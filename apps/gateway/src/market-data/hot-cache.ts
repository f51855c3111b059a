import { Redis } from 'ioredis';
import { sayConnectionFailures } from '@exchange/service-kit';

/** The channel Redis sends key invalidations to, for a client that redirects them (RESP2). */
const INVALIDATION_CHANNEL = '__redis__:invalidate';
/** Past this many entries (mostly unknown tokens asked for) the cache starts over. */
const MAX_ENTRIES = 100_000;

type Hash = Record<string, string>;

interface Fetch {
  promise: Promise<Hash>;
  /** Set when the key changed while the fetch was on its way: its answer is used once, not kept. */
  stale: boolean;
}

/**
 * A process-local copy of the hashes market-data keeps in Redis under one prefix (hot market metadata
 * and rendered `/book`, `/price`, `/midpoint` answers), kept right by Redis itself: server-assisted
 * client-side caching in broadcast mode. Redis sends the name of every key written under the prefix to
 * the listener connection, and the entry is dropped; the next read fetches it again. A hot read is then
 * a map lookup instead of a Redis round trip.
 *
 * An answer is at most as old as the invalidation still in flight on loopback (well under a
 * millisecond). While either connection is down, invalidations may be lost: the cache empties and every
 * read goes to Redis until tracking is set up again on fresh connections.
 */
export class HotCache {
  private readonly entries = new Map<string, Hash>();
  private readonly fetches = new Map<string, Fetch>();
  /** Whether invalidations are being received, so that entries may be kept. */
  private tracking = false;
  private listenerId: string | undefined;
  private setUp: Promise<void> = Promise.resolve();

  private constructor(
    private readonly reader: Redis,
    private readonly listener: Redis,
    private readonly prefix: string,
    private readonly onProblem: (message: string) => void,
  ) {
    listener.on('messageBuffer', (_channel: Buffer, keys: unknown) => this.invalidate(keys));
    listener.on('ready', () => this.queueSetUp(() => this.listen()));
    reader.on('ready', () => this.queueSetUp(() => this.track()));
    reader.on('close', () => this.stopTracking());
    listener.on('close', () => {
      this.listenerId = undefined;
      this.stopTracking();
    });
    // One line per distinct failure until the connection is ready again, not one per reconnection
    // attempt (3-4 lines a second during a Redis outage; found by a chaos probe).
    for (const connection of [reader, listener]) sayConnectionFailures(connection, (message) => onProblem(`redis: ${message}`));
  }

  /** Caches the keys under `prefix` (e.g. `exch:md:`), read through its own two connections. */
  static open(redisUrl: string, prefix: string, onProblem: (message: string) => void): HotCache {
    const reader = new Redis(redisUrl, { maxRetriesPerRequest: 1, commandTimeout: 2_000, connectionName: `hot-reader:${prefix}` });
    // Its client id changes on every connection: subscribed again by hand, after asking for the id.
    const listener = new Redis(redisUrl, { autoResubscribe: false, connectionName: `hot-listener:${prefix}` });
    return new HotCache(reader, listener, prefix, onProblem);
  }

  /** Whether entries are being kept (invalidations arrive): for tests and health. */
  get isTracking(): boolean {
    return this.tracking;
  }

  /** The hash at `key` (empty when there is none); fails at once while the reader is not connected. */
  async hash(key: string): Promise<Hash> {
    const cached = this.entries.get(key);
    if (cached !== undefined) return cached;
    const pending = this.fetches.get(key);
    if (pending !== undefined) return pending.promise;
    // Sent while disconnected, a read waited for the reconnection up to its 2 s timeout, and every
    // /book and /price of a Redis outage with it (found by a chaos probe): callers go to market-data.
    if (this.reader.status !== 'ready') throw new Error(`redis is ${this.reader.status}`);
    if (!this.tracking) return this.reader.hgetall(key);
    const fetch: Fetch = { promise: this.reader.hgetall(key), stale: false };
    this.fetches.set(key, fetch);
    try {
      const value = await fetch.promise;
      if (!fetch.stale && this.tracking) this.keep(key, value);
      return value;
    } finally {
      if (this.fetches.get(key) === fetch) this.fetches.delete(key);
    }
  }

  async close(): Promise<void> {
    this.stopTracking();
    await Promise.allSettled([this.reader.quit(), this.listener.quit()]);
    this.reader.disconnect();
    this.listener.disconnect();
  }

  private keep(key: string, value: Hash): void {
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(key, value);
  }

  /** Keys written under the prefix (a list), or everything (null, after FLUSHALL). */
  private invalidate(keys: unknown): void {
    if (!Array.isArray(keys)) return this.forgetAll();
    for (const key of keys) {
      const name = String(key);
      this.entries.delete(name);
      const fetch = this.fetches.get(name);
      if (fetch !== undefined) {
        fetch.stale = true;
        this.fetches.delete(name);
      }
    }
  }

  private forgetAll(): void {
    this.entries.clear();
    for (const fetch of this.fetches.values()) fetch.stale = true;
    this.fetches.clear();
  }

  private stopTracking(): void {
    this.tracking = false;
    this.forgetAll();
  }

  /** Set-up steps run one after the other, whichever connection became ready first. */
  private queueSetUp(step: () => Promise<void>): void {
    this.setUp = this.setUp.then(step).catch((error: unknown) => {
      this.stopTracking();
      this.onProblem(`hot cache set-up failed, reading Redis directly: ${String(error)}`);
    });
  }

  private async listen(): Promise<void> {
    this.listenerId = String(await this.listener.client('ID'));
    await this.listener.subscribe(INVALIDATION_CHANNEL);
    await this.track();
  }

  private async track(): Promise<void> {
    if (this.listenerId === undefined || this.reader.status !== 'ready' || this.listener.status !== 'ready') return;
    this.stopTracking();
    // OFF first: a reader that was tracking for an earlier listener cannot change its redirect.
    await this.reader.call('CLIENT', 'TRACKING', 'OFF');
    await this.reader.call('CLIENT', 'TRACKING', 'ON', 'REDIRECT', this.listenerId, 'BCAST', 'PREFIX', this.prefix);
    this.forgetAll();
    this.tracking = true;
  }
}
