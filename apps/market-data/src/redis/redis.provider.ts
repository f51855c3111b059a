import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { DistinctFailures } from '@exchange/service-kit';
import { MARKET_DATA_ENV, type MarketDataEnv } from '../config';

/** The process's Redis connection (hot market metadata), closed at shutdown. */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  readonly client: Redis;

  constructor(@Inject(MARKET_DATA_ENV) env: MarketDataEnv) {
    // Named, so that an operator (or a test) can tell it in CLIENT LIST.
    this.client = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 3, commandTimeout: 5_000, connectionName: `market-data:${env.REDIS_KEY_PREFIX}` });
    const failures = new DistinctFailures((message) => this.logger.warn(`redis: ${message}`));
    this.client.on('error', (error: Error) => failures.failed(error.message));
    this.client.on('ready', () => failures.cleared());
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => undefined);
    this.client.disconnect();
  }
}
