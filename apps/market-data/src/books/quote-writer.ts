import { Inject, Injectable } from '@nestjs/common';
import { hotMetadataKeys } from '@exchange/contracts';
import { MARKET_DATA_ENV, type MarketDataEnv } from '../config';
import { MarketRegistry } from '../markets/market-registry';
import { RedisConnection } from '../redis/redis.provider';
import { BooksService } from './books.service';

/**
 * Writes the pre-rendered `/book`, `/price` and `/midpoint` answers of the tokens of changed markets to
 * Redis, where the gateway serves them without a NATS round trip (docs/market-data.md). They are the
 * same answers market-data gives over NATS, rendered from the same in-memory books.
 */
@Injectable()
export class QuoteWriter {
  private readonly prefix: string;

  constructor(
    private readonly registry: MarketRegistry,
    private readonly books: BooksService,
    private readonly redis: RedisConnection,
    @Inject(MARKET_DATA_ENV) env: MarketDataEnv,
  ) {
    this.prefix = env.REDIS_KEY_PREFIX;
  }

  async write(conditionIds: Iterable<string>): Promise<void> {
    const pipeline = this.redis.client.pipeline();
    let queued = 0;
    for (const conditionId of conditionIds) {
      const market = this.registry.get(conditionId);
      if (!market) continue;
      for (const tokenId of market.snapshot.tokenIds) {
        const quote = this.books.quote(tokenId);
        if (!quote) continue;
        pipeline.hset(hotMetadataKeys.quote(this.prefix, tokenId), { ...quote });
        queued++;
      }
    }
    if (queued === 0) return;
    const results = await pipeline.exec();
    const failed = results?.find(([error]) => error);
    if (failed) throw failed[0];
  }
}
