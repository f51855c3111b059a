import { Inject, Injectable, type OnApplicationShutdown } from '@nestjs/common';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client';
import { CATALOG_ENV, type CatalogEnv } from '../config';

@Injectable()
export class PrismaService extends PrismaClient implements OnApplicationShutdown {
  constructor(@Inject(CATALOG_ENV) env: CatalogEnv) {
    super({ adapter: new PrismaPg({ connectionString: env.DATABASE_URL }) });
  }

  /** After the outbox relay's last publish marks its rows (beforeApplicationShutdown). */
  async onApplicationShutdown(): Promise<void> {
    await this.$disconnect();
  }
}
