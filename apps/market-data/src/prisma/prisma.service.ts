import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import type { Pool } from 'pg';
import { pgPool } from '@exchange/service-kit';
import { PrismaClient } from '../generated/prisma/client';
import { MARKET_DATA_ENV, type MarketDataEnv } from '../config';

/**
 * Prisma on a pg pool of its own making, which is also `pool` for the one statement on the hot path
 * (the price history written with every flush): through Prisma, its query compiler, spans and adapter
 * took about 15% of market-data's CPU under load, more than the insert itself.
 */
@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  readonly pool: Pool;

  constructor(@Inject(MARKET_DATA_ENV) env: MarketDataEnv) {
    const pool = pgPool('market-data-db', { connectionString: env.DATABASE_URL });
    super({ adapter: new PrismaPg(pool) });
    this.pool = pool;
  }

  /** After the consumers' last writes, which they make before the application shuts down. */
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
    await this.pool.end();
  }
}
