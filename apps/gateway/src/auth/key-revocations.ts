import type { NatsConnection, Subscription } from 'nats';
import { errorMessage, prefixed } from '@exchange/service-kit';
import { API_KEY_SHAPE, type ApiKeyCache } from './api-key-cache';

/**
 * Tells every gateway process of a key revoked in one of them, so that it stops working everywhere at
 * once: each process otherwise kept it in its cache for up to ApiKeyCache.POSITIVE_TTL_MS (10 s), and a
 * trader revoking a leaked key expects it dead. Core NATS, at most once: a lost message leaves that bound.
 */
export class KeyRevocations {
  private readonly subject: string;
  private readonly subscription: Subscription;

  constructor(
    private readonly nc: NatsConnection,
    prefix: string,
    cache: ApiKeyCache,
    private readonly warn: (message: string) => void,
  ) {
    this.subject = prefixed(prefix, 'gateway.api-key-revoked.v1');
    this.subscription = nc.subscribe(this.subject, {
      callback: (error, message) => {
        if (error) return warn(`revoked keys of other gateway processes: ${errorMessage(error)}`);
        const apiKey = message.string();
        if (API_KEY_SHAPE.test(apiKey)) cache.setRevoked(apiKey);
      },
    });
  }

  /**
   * Sent once the revoke is committed: a process that reads the key after this finds it revoked. While
   * NATS is away nats.js keeps it until it is back; a closed connection throws, which must not turn the
   * committed revoke into a 500.
   */
  announce(apiKey: string): void {
    try {
      this.nc.publish(this.subject, apiKey);
    } catch (error) {
      this.warn(`could not tell the other gateway processes that key ${apiKey} was revoked (they refuse it within 10 s): ${errorMessage(error)}`);
    }
  }

  close(): void {
    this.subscription.unsubscribe();
  }
}
