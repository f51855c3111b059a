import type { PatchEventRequest, PatchMarketRequest } from '@exchange/contracts';
import type { Prisma } from '../generated/prisma/client';
import type { CatalogOutbox } from '../outbox/catalog-outbox';
import { eventSnapshot, marketSnapshot } from '../outbox/snapshots';

/** What a snapshot of a market or an event needs of its event. */
export const eventForSnapshot = { tags: { include: { tag: true } } } as const;

/**
 * Moves an event's flags inside a caller's transaction and announces it. Closing or archiving an event
 * closes or archives all its markets (and announces those it changed: the others' snapshots would say
 * nothing new); reopening leaves them as they are.
 */
export async function writeEventFlags(
  tx: Prisma.TransactionClient,
  outbox: CatalogOutbox,
  id: number,
  flags: PatchEventRequest['body'],
): Promise<void> {
  const event = await tx.event.update({ where: { id }, data: flags, include: eventForSnapshot });
  const cascade = { ...(flags.closed === true && { closed: true }), ...(flags.archived === true && { archived: true }) };
  const unlike = Object.keys(cascade).map((flag) => ({ [flag]: false }));
  const changing = unlike.length
    ? await tx.market.findMany({ where: { eventId: id, OR: unlike }, select: { id: true } }).then((rows) => rows.map((r) => r.id))
    : [];
  if (changing.length) await tx.market.updateMany({ where: { id: { in: changing } }, data: cascade });
  const markets = await tx.market.findMany({ where: { eventId: id }, include: { sites: true }, orderBy: { position: 'asc' } });
  await outbox.append(tx, 'catalog.evt.event.updated.v1', eventSnapshot(event, markets.map((m) => m.id)));
  for (const market of markets) {
    if (changing.includes(market.id)) await outbox.append(tx, 'catalog.evt.market.updated.v1', marketSnapshot(market, event));
  }
}

/** Moves a market's flags inside a caller's transaction and announces its new state; answers both for presenting. */
export async function writeMarketFlags(
  tx: Prisma.TransactionClient,
  outbox: CatalogOutbox,
  id: number,
  flags: PatchMarketRequest['body'],
) {
  const market = await tx.market.update({ where: { id }, data: flags, include: { sites: true } });
  const event = await tx.event.findUniqueOrThrow({ where: { id: market.eventId }, include: eventForSnapshot });
  await outbox.append(tx, 'catalog.evt.market.updated.v1', marketSnapshot(market, event));
  return { market, event };
}
