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
import { presentEvent, presentMarket } from '../presenters/catalog.presenter';
import { PrismaService } from '../prisma/prisma.service';
import { inTransaction } from '../prisma/transaction';
import { EventWriter } from './event-writer';
import { eventForSnapshot, followMarkets, lockEvent, writeEventFlags, writeMarketChanges } from './flag-writes';

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

  /** Deactivating, closing or archiving an event does the same to all its markets; undoing it leaves them as they are. */
  async patchEvent({ id, body }: PatchEventRequest): Promise<Reply<CatalogEvent>> {
    const done = await inTransaction(this.prisma, async (tx) => {
      const updatedAt = await lockEvent(tx, id);
      if (!updatedAt) return fail('event_not_found', `event ${id} not found`);
      await writeEventFlags(tx, this.outbox, id, body, updatedAt);
      return ok(id);
    });
    if (!done.ok) return done;
    void this.outbox.flush();
    return ok(presentEvent((await this.events.findOne({ id }, undefined))!));
  }

  async patchMarket({ id, body }: PatchMarketRequest): Promise<Reply<CatalogMarket>> {
    const done = await inTransaction(this.prisma, async (tx) => {
      const key = await tx.market.findFirst({ where: marketKey(id), select: { id: true, eventId: true } });
      if (!key) return fail('market_not_found', `market ${id} not found`);
      const updatedAt = (await lockEvent(tx, key.eventId))!;
      // Read under the lock: a resolution committed meanwhile is seen.
      const found = await tx.market.findUniqueOrThrow({ where: { id: key.id } });
      // order-matching will never trade a resolved market again: the catalog must not show it open.
      if (found.resolved && (body.closed === false || body.acceptingOrders === true)) {
        return fail('market_resolved', `market ${id} is resolved: it cannot be reopened`);
      }
      if (found.resolved && (body.tickSize ?? body.minOrderSize ?? body.feeSchedule) !== undefined) {
        return fail('market_resolved', `market ${id} is resolved: its trading settings cannot change`);
      }
      const written = await writeMarketChanges(tx, this.outbox, found.id, body, updatedAt);
      let { event } = written;
      if (body.closed !== undefined && (await followMarkets(tx, this.outbox, event.id, updatedAt))) {
        event = await tx.event.findUniqueOrThrow({ where: { id: event.id }, include: eventForSnapshot });
      }
      return ok(presentMarket({ ...written.market, event }));
    });
    if (done.ok) void this.outbox.flush();
    return done;
  }
}
