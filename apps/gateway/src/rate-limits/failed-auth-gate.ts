import { LRUCache } from 'lru-cache';

/**
 * Requests that fail L2 authentication are not counted by the rate limits (those count per the API
 * key's address, once it is authenticated), yet each costs an HMAC, and one with a made-up key a
 * database read; a failed L1 request costs a signature recovery. Per client address this lets `burst`
 * failures through, then `perSecond`; past that, the address's L1 and L2 requests are refused with 429
 * before any of that work until it has a failure to spare again. In memory, per gateway process (a
 * guard against floods, not one of SPEC.md's limits, and free for requests that pass).
 */
export class FailedAuthGate {
  /** Per address, its GCRA "theoretical arrival time" in ms. */
  private readonly tats: LRUCache<string, number>;
  private readonly intervalMs: number;
  private readonly windowMs: number;

  constructor(
    readonly burst: number,
    perSecond: number,
  ) {
    this.intervalMs = 1_000 / perSecond;
    this.windowMs = burst * this.intervalMs;
    this.tats = new LRUCache<string, number>({ max: 100_000, ttl: this.windowMs });
  }

  /** Seconds until the address may fail again, 0 when it may now. */
  retryAfterSeconds(address: string, nowMs = Date.now()): number {
    const tat = this.tats.get(address);
    if (tat === undefined) return 0;
    const early = tat + this.intervalMs - this.windowMs - nowMs;
    return early > 0 ? Math.ceil(early / 1_000) : 0;
  }

  /** Unix ms at which the address has all `burst` failures to spare again (now when it has). */
  fullAtMs(address: string, nowMs = Date.now()): number {
    return Math.max(this.tats.get(address) ?? nowMs, nowMs);
  }

  /** Counts one failed authentication of the address. */
  failed(address: string, nowMs = Date.now()): void {
    const tat = this.fullAtMs(address, nowMs) + this.intervalMs;
    this.tats.set(address, tat, { ttl: Math.ceil(tat - nowMs) });
  }
}
