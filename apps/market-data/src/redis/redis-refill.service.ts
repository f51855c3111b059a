import { Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { QuoteWriter } from '../books/quote-writer';
import { CatalogConsumer } from '../markets/catalog-consumer.service';
import { HotMetadataWriter } from '../markets/hot-metadata.writer';
import { MarketRegistry } from '../markets/market-registry';
import { RedisConnection } from './redis.provider';

/**
 * Writes every hash market-data keeps in Redis again whenever its connection comes back: a Redis that
 * keeps nothing on disk restarts empty, and until the nineteenth session the markets' settings came back
 * only as each market changed, so the gateway's pre-checks stayed off and `/tick-size`, `/book` and the
 * like went over NATS (found by a chaos probe). A reconnection to a Redis that kept its data rewrites
 * the same values.
 */
@Injectable()
export class RedisRefill implements OnApplicationBootstrap {
  private readonly logger = new Logger(RedisRefill.name);

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
      this.refill().catch((error: unknown) => this.logger.warn(`refilling Redis failed: ${String(error)}`));
    });
  }

  private async refill(): Promise<void> {
    const all = this.registry.list().map((record) => record.conditionId);
    await this.hot.writeDefaultFeeRate();
    await this.catalog.refresh(all);
    // Quotes are written once the books are built; until then their own start-up writes them all.
    if (this.registry.ready) await this.quotes.write(all);
    this.logger.log(`Redis connection back: the hashes of ${all.length} markets written again`);
  }
}
