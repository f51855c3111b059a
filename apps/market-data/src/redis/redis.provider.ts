import { Inject, Injectable, Logger, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';
import { sayConnectionFailures } from '@exchange/service-kit';
import { MARKET_DATA_ENV, type MarketDataEnv } from '../config';

/** The process's Redis connection (hot market metadata), closed at shutdown. */
@Injectable()
export class RedisConnection implements OnApplicationShutdown {
  private readonly logger = new Logger('Redis');
  readonly client: Redis;

  constructor(@Inject(MARKET_DATA_ENV) env: MarketDataEnv) {
    // Named, so that an operator (or a test) can tell it in CLIENT LIST.
    this.client = new Redis(env.REDIS_URL, { maxRetriesPerRequest: 3, commandTimeout: 5_000, connectionName: `market-data:${env.REDIS_KEY_PREFIX}` });
    sayConnectionFailures(this.client, (message) => this.logger.warn(`redis: ${message}`));
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => undefined);
    this.client.disconnect();
  }
}
