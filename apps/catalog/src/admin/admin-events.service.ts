import { Injectable } from '@nestjs/common';
import {
  fail,
  ok,
  type CatalogEvent,
  type CatalogMarket,
  type CreateEventInput,
  type PatchEventRequest,
  type PatchMarketRequest,
  type Reply,
} from '@exchange/contracts';
import { EventRepository } from '../events/event.repository';
import { marketKey } from '../markets/market.repository';
import { CatalogOutbox } from '../outbox/catalog-outbox';
import { eventSnapshot, marketSnapshot } from '../outbox/snapshots';
import { presentEvent, presentMarket } from '../presenters/catalog.presenter';
import { PrismaService } from '../prisma/prisma.service';
import { inTransaction } from '../prisma/transaction';
import { EventWriter } from './event-writer';

const eventForSnapshot = { tags: { include: { tag: true } } } as const;

/** The operator's writes: create events with markets, and move the active/closed/archived flags. */
@Injectable()
export class AdminEventsService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly writer: EventWriter,
    private readonly events: EventRepository,
    private readonly outbox: CatalogOutbox,
  ) {}

  async create(input: CreateEventInput): Promise<Reply<CatalogEvent>> {
    const created = await inTransaction(this.prisma, (tx) => this.writer.create(tx, input));
    if (!created.ok) return created;
    void this.outbox.flush();
    return ok(presentEvent((await this.events.findOne({ id: created.data }, undefined))!));
  }

  /** Closing or archiving an event closes or archives all its markets; reopening leaves them as they are. */
  async patchEvent({ id, body }: PatchEventRequest): Promise<Reply<CatalogEvent>> {
    const done = await inTransaction(this.prisma, async (tx) => {
      if (!(await tx.event.findUnique({ where: { id } }))) return fail('event_not_found', `event ${id} not found`);
      const event = await tx.event.update({ where: { id }, data: body, include: eventForSnapshot });
      const cascade = { closed: body.closed === true ? true : undefined, archived: body.archived === true ? true : undefined };
      if (cascade.closed || cascade.archived) await tx.market.updateMany({ where: { eventId: id }, data: cascade });
      const markets = await tx.market.findMany({ where: { eventId: id }, include: { sites: true }, orderBy: { position: 'asc' } });
      await this.outbox.append(tx, 'catalog.evt.event.updated.v1', eventSnapshot(event, markets.map((m) => m.id)));
      if (cascade.closed || cascade.archived) {
        for (const market of markets) await this.outbox.append(tx, 'catalog.evt.market.updated.v1', marketSnapshot(market, event));
      }
      return ok(id);
    });
    if (!done.ok) return done;
    void this.outbox.flush();
    return ok(presentEvent((await this.events.findOne({ id }, undefined))!));
  }

  async patchMarket({ id, body }: PatchMarketRequest): Promise<Reply<CatalogMarket>> {
    const done = await inTransaction(this.prisma, async (tx) => {
      const found = await tx.market.findFirst({ where: marketKey(id) });
      if (!found) return fail('market_not_found', `market ${id} not found`);
      const market = await tx.market.update({ where: { id: found.id }, data: body, include: { sites: true } });
      const event = await tx.event.findUniqueOrThrow({ where: { id: market.eventId }, include: eventForSnapshot });
      await this.outbox.append(tx, 'catalog.evt.market.updated.v1', marketSnapshot(market, event));
      return ok(presentMarket({ ...market, event }));
    });
    if (done.ok) void this.outbox.flush();
    return done;
  }
}
