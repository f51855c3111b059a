import { eventForSnapshot } from '../admin/flag-writes';
import type { PrismaService } from '../prisma/prisma.service';
import type { CatalogOutbox } from './catalog-outbox';
import { eventSnapshot, marketSnapshot } from './snapshots';

/** Events written per transaction: a catalog of tens of thousands of markets is not one transaction. */
const EVENTS_PER_TRANSACTION = 200;

/**
 * Writes every event's and market's current snapshot into the outbox again, for a CATALOG stream that
 * was created anew while the catalog holds markets (its messages deleted, or lost with NATS' storage).
 * The stream keeps every market's history for a new database of order-matching or market-data to
 * replay; without this such a database learnt no market from before (found by an operations probe).
 * Readers keep the snapshot with the latest `updatedAt`, so a copy of what they hold changes nothing.
 * Answers how many markets it wrote.
 */
export async function appendEverySnapshot(prisma: PrismaService, outbox: CatalogOutbox): Promise<number> {
  let markets = 0;
  for (let afterId = 0; ; ) {
    const written = await prisma.$transaction(async (tx) => {
      const events = await tx.event.findMany({
        where: { id: { gt: afterId } },
        orderBy: { id: 'asc' },
        take: EVENTS_PER_TRANSACTION,
        include: { ...eventForSnapshot, markets: { include: { sites: true }, orderBy: { position: 'asc' } } },
      });
      for (const { markets: rows, ...event } of events) {
        await outbox.append(tx, 'catalog.evt.event.updated.v1', eventSnapshot(event, rows.map((m) => m.id)));
        for (const market of rows) await outbox.append(tx, 'catalog.evt.market.updated.v1', marketSnapshot(market, event));
        markets += rows.length;
      }
      return events;
    });
    if (written.length < EVENTS_PER_TRANSACTION) return markets;
    afterId = written.at(-1)!.id;
  }
}
