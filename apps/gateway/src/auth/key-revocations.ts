import type { NatsConnection, Subscription } from 'nats';
import { prefixed } from '@exchange/service-kit';
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
  ) {
    this.subject = prefixed(prefix, 'gateway.api-key-revoked.v1');
    this.subscription = nc.subscribe(this.subject, {
      callback: (error, message) => {
        const apiKey = error ? '' : message.string();
        if (API_KEY_SHAPE.test(apiKey)) cache.setAbsent(apiKey);
      },
    });
  }

  /** Sent once the revoke is committed: a process that reads the key after this finds it revoked. */
  announce(apiKey: string): void {
    this.nc.publish(this.subject, apiKey);
  }

  close(): void {
    this.subscription.unsubscribe();
  }
}
