import { Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { QuoteWriter } from '../books/quote-writer';
import { CatalogConsumer } from '../markets/catalog-consumer.service';
import { HotMetadataWriter } from '../markets/hot-metadata.writer';
import { MarketRegistry } from '../markets/market-registry';
import { RedisConnection } from './redis.provider';

/** How often the defaults hash is looked for: a FLUSHALL keeps the connection, so no reconnection tells of it. */
export const EMPTIED_CHECK_MS = 5_000;

/**
 * Writes every hash market-data keeps in Redis again whenever its connection comes back: a Redis that
 * keeps nothing on disk restarts empty, and until the nineteenth session the markets' settings came back
 * only as each market changed, so the gateway's pre-checks stayed off and `/tick-size`, `/book` and the
 * like went over NATS (found by a chaos probe). A reconnection to a Redis that kept its data rewrites
 * the same values. The same when the defaults hash is found gone on a live connection (a FLUSHALL or
 * FLUSHDB): until the thirtieth session the hashes stayed gone until the connection dropped (a probe).
 */
@Injectable()
export class RedisRefill implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RedisRefill.name);
  private timer?: NodeJS.Timeout;
  private refilling = false;
  private again?: string;

  constructor(
    private readonly redis: RedisConnection,
    private readonly registry: MarketRegistry,
    private readonly catalog: CatalogConsumer,
    private readonly hot: HotMetadataWriter,
    private readonly quotes: QuoteWriter,
  ) {}

  /** After the start-up writes (the catalog consumer's, the books' once ready): only later connections refill. */
  onApplicationBootstrap(): void {
    let started = this.redis.client.status === 'ready';
    this.redis.client.on('ready', () => {
      if (!started) {
        started = true;
        return;
      }
      void this.refill('Redis connection back');
    });
    this.timer = setInterval(() => void this.refillIfEmptied(), EMPTIED_CHECK_MS).unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  private async refillIfEmptied(): Promise<void> {
    // Before the books are built the start-up is still writing the hashes (the defaults first of all).
    if (this.redis.client.status !== 'ready' || !this.registry.ready || this.refilling) return;
    // A failed look (Redis gone meanwhile) is for the reconnection to mend.
    if (await this.hot.defaultsPresent().catch(() => true)) return;
    await this.refill('the hashes were gone from Redis (a FLUSHALL or FLUSHDB)');
  }

  /** One at a time; asked again while one runs, it runs once more after it (a reconnection meanwhile). */
  private async refill(why: string): Promise<void> {
    if (this.refilling) {
      this.again = why;
      return;
    }
    this.refilling = true;
    try {
      const all = this.registry.list().map((record) => record.conditionId);
      await this.hot.writeDefaultFeeRate();
      await this.catalog.refresh(all);
      // Quotes are written once the books are built; until then their own start-up writes them all.
      if (this.registry.ready) await this.quotes.write(all);
      this.logger.log(`${why}: the hashes of ${all.length} markets written again`);
    } catch (error) {
      this.logger.warn(`refilling Redis failed: ${String(error)}`);
    } finally {
      this.refilling = false;
    }
    const again = this.again;
    this.again = undefined;
    if (again !== undefined) await this.refill(again);
  }
}
