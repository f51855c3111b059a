import type { PatchEventRequest, PatchMarketRequest } from '@exchange/contracts';
import type { Prisma } from '../generated/prisma/client';
import type { CatalogOutbox } from '../outbox/catalog-outbox';
import { eventSnapshot, marketSnapshot } from '../outbox/snapshots';
import { settingsColumns } from './market-settings';

/** What a snapshot of a market or an event needs of its event. */
export const eventForSnapshot = { tags: { include: { tag: true } } } as const;

/**
 * Locks an event's row for the rest of the transaction and answers the `updatedAt` for what it writes
 * to the event and its markets: after every earlier write of them, by a millisecond if need be. Every
 * writer of their flags locks the event first (PATCHes of the event or a market, resolutions), so the
 * writers of one event take turns, and each one's snapshots carry a later `updatedAt` than the last
 * one's. Consumers keep the snapshot with the latest `updatedAt` (market-data): until 2026-11-26 two
 * PATCHes of one market at once could commit in the other order than their times, and market-data kept
 * the older state for good; and a PATCH could reopen a market a resolution was closing (found by a fuzzing round).
 * Undefined when there is no such event.
 */
export async function lockEvent(tx: Prisma.TransactionClient, eventId: number): Promise<Date | undefined> {
  const [event] = await tx.$queryRaw<{ updated_at: Date }[]>`SELECT updated_at FROM events WHERE id = ${eventId} FOR UPDATE`;
  if (!event) return undefined;
  const [{ latest }] = await tx.$queryRaw<[{ latest: Date | null }]>`SELECT max(updated_at) AS latest FROM markets WHERE event_id = ${eventId}`;
  const last = Math.max(event.updated_at.getTime(), latest?.getTime() ?? 0);
  return new Date(Math.max(Date.now(), last + 1));
}

/**
 * Moves an event's flags inside a caller's transaction (after `lockEvent`) and announces it. Deactivating, closing or
 * archiving an event does the same to all its markets (and announces those it changed: the others'
 * snapshots would say nothing new); undoing it leaves them as they are.
 */
export async function writeEventFlags(
  tx: Prisma.TransactionClient,
  outbox: CatalogOutbox,
  id: number,
  flags: PatchEventRequest['body'],
  updatedAt: Date,
): Promise<void> {
  const event = await tx.event.update({ where: { id }, data: { ...flags, updatedAt }, include: eventForSnapshot });
  const cascade = {
    ...(flags.active === false && { active: false }),
    ...(flags.closed === true && { closed: true }),
    ...(flags.archived === true && { archived: true }),
  };
  const unlike = Object.entries(cascade).map(([flag, value]) => ({ [flag]: !value }));
  const changing = unlike.length
    ? await tx.market.findMany({ where: { eventId: id, OR: unlike }, select: { id: true } }).then((rows) => rows.map((r) => r.id))
    : [];
  if (changing.length) await tx.market.updateMany({ where: { id: { in: changing } }, data: { ...cascade, updatedAt } });
  const markets = await tx.market.findMany({ where: { eventId: id }, include: { sites: true }, orderBy: { position: 'asc' } });
  await outbox.append(tx, 'catalog.evt.event.updated.v1', eventSnapshot(event, markets.map((m) => m.id)));
  for (const market of markets) {
    if (changing.includes(market.id)) await outbox.append(tx, 'catalog.evt.market.updated.v1', marketSnapshot(market, event));
  }
}

/**
 * Moves a market's flags and trading settings inside a caller's transaction and announces its new
 * state; answers both for presenting.
 */
export async function writeMarketChanges(
  tx: Prisma.TransactionClient,
  outbox: CatalogOutbox,
  id: number,
  changes: PatchMarketRequest['body'] & { resolved?: true },
  updatedAt: Date,
) {
  const { tickSize, minOrderSize, feeSchedule, ...flags } = changes;
  const data = { ...flags, ...settingsColumns({ tickSize, minOrderSize, feeSchedule }), updatedAt };
  const market = await tx.market.update({ where: { id }, data, include: { sites: true } });
  const event = await tx.event.findUniqueOrThrow({ where: { id: market.eventId }, include: eventForSnapshot });
  await outbox.append(tx, 'catalog.evt.market.updated.v1', marketSnapshot(market, event));
  return { market, event };
}

/**
 * An event is closed exactly when all its markets are (docs/catalog.md): after a market closed or
 * reopened, by the operator or by a resolution, the event follows. Until the eighteenth session only a
 * resolution closed it, and nothing reopened it: an event whose last market the operator closed by hand
 * stayed open, and one closed with its markets stayed closed when a market reopened, hidden from
 * clients that list `closed=false` events while its market traded (found by a probe). True when it
 * moved the event.
 */
export async function followMarkets(tx: Prisma.TransactionClient, outbox: CatalogOutbox, eventId: number, updatedAt: Date): Promise<boolean> {
  const event = await tx.event.findUniqueOrThrow({ where: { id: eventId }, select: { closed: true } });
  const [all, open] = await Promise.all([tx.market.count({ where: { eventId } }), tx.market.count({ where: { eventId, closed: false } })]);
  const closed = all > 0 && open === 0;
  if (event.closed === closed) return false;
  await writeEventFlags(tx, outbox, eventId, { closed }, updatedAt);
  return true;
}
