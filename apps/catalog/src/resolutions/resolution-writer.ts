import { Injectable } from '@nestjs/common';
import { followMarkets, lockEvent, writeMarketChanges } from '../admin/flag-writes';
import { CatalogOutbox } from '../outbox/catalog-outbox';
import { PrismaService } from '../prisma/prisma.service';

/** What applying a resolution did: `unchanged` when it had been applied before (a redelivery). */
export type ResolutionOutcome = 'closed' | 'unchanged' | 'unknown';

/**
 * Brings a market order-matching resolved to the same state in the catalog: closed and no longer
 * accepting orders (`active` stays, as upstream keeps it for resolved markets), and its event closed
 * once all its markets are. The changes are announced as the operator's PATCHes are, in the same
 * transaction. Applying a resolution again changes nothing.
 */
@Injectable()
export class ResolutionWriter {
  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: CatalogOutbox,
  ) {}

  async apply(conditionId: string): Promise<ResolutionOutcome> {
    const outcome = await this.prisma.$transaction(async (tx): Promise<ResolutionOutcome> => {
      const key = await tx.market.findUnique({ where: { conditionId: conditionId.toLowerCase() }, select: { id: true, eventId: true } });
      if (!key) return 'unknown';
      // The event's row first (`lockEvent`): two resolutions of an event's last open markets, committed
      // at the same time, would otherwise each see the other market open and leave the event open.
      const updatedAt = (await lockEvent(tx, key.eventId))!;
      const market = await tx.market.findUniqueOrThrow({ where: { id: key.id } });
      let changed = false;
      if (!market.closed || market.acceptingOrders) {
        await writeMarketChanges(tx, this.outbox, market.id, { closed: true, acceptingOrders: false, resolved: true }, updatedAt);
        changed = true;
      } else if (!market.resolved) {
        // Not announced, and its time stays: the flag is the catalog's own guard (no snapshot carries it).
        await tx.market.update({ where: { id: market.id }, data: { resolved: true, updatedAt: market.updatedAt } });
      }
      if (await followMarkets(tx, this.outbox, market.eventId, updatedAt)) changed = true;
      return changed ? 'closed' : 'unchanged';
    });
    if (outcome === 'closed') void this.outbox.flush();
    return outcome;
  }
}
