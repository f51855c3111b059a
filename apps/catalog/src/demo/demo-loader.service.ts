import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import { ok } from '@exchange/contracts';
import { EventWriter } from '../admin/event-writer';
import { CATALOG_ENV, type CatalogEnv } from '../config';
import { CatalogOutbox } from '../outbox/catalog-outbox';
import { PrismaService } from '../prisma/prisma.service';
import { inTransaction } from '../prisma/transaction';
import { demoEvents, demoSites } from './demo-catalog';

/** Any constant works; it only has to be the same for every replica. */
const DEMO_LOCK = 724_001;

/**
 * Loads the demo catalog on the first start with an empty database, in one transaction under an
 * advisory lock so that replicas starting together load it once.
 */
@Injectable()
export class DemoLoader implements OnApplicationBootstrap {
  private readonly logger = new Logger(DemoLoader.name);

  constructor(
    @Inject(CATALOG_ENV) private readonly env: CatalogEnv,
    private readonly prisma: PrismaService,
    private readonly writer: EventWriter,
    private readonly outbox: CatalogOutbox,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (!this.env.DEMO_DATA) return;
    const loaded = await inTransaction(this.prisma, async (tx) => {
      await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${DEMO_LOCK})`);
      if ((await tx.event.count()) > 0 || (await tx.site.count()) > 0) return ok(false);
      for (const site of demoSites) await tx.site.create({ data: { ...site, creatorAddress: site.creatorAddress.toLowerCase() } });
      for (const event of demoEvents) {
        const created = await this.writer.create(tx, event);
        if (!created.ok) return created;
      }
      return ok(true);
    });
    if (!loaded.ok) throw new Error(`demo catalog failed to load: ${loaded.body.error}`);
    if (loaded.data) {
      this.logger.log(`loaded the demo catalog: ${demoEvents.length} events, ${demoSites.length} sites`);
      await this.outbox.flush();
    }
  }
}
