import { Inject, Injectable, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { CATALOG_STREAM, type CatalogStreamPayload, type CatalogStreamSubject } from '@exchange/contracts';
import {
  ensureStream,
  MESSAGING_ENV,
  NATS_CONNECTION,
  OutboxRelay,
  type BaseEnv,
  type OutboxRecord,
  type OutboxStore,
} from '@exchange/service-kit';
import type { Prisma } from '../generated/prisma/client';
import { PrismaService } from '../prisma/prisma.service';

/** The catalog's outbox: change events written in the same transaction as the change. */
@Injectable()
export class CatalogOutbox implements OutboxStore, OnModuleInit, BeforeApplicationShutdown {
  private relay?: OutboxRelay;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(MESSAGING_ENV) private readonly env: BaseEnv,
  ) {}

  async onModuleInit(): Promise<void> {
    await ensureStream(this.nc, this.env.NATS_PREFIX, CATALOG_STREAM);
    this.relay = new OutboxRelay(this.nc.jetstream(), this.env.NATS_PREFIX, this);
    this.relay.start();
  }

  /** Before PostgreSQL and NATS close (onApplicationShutdown): a publish in progress marks its rows. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.relay?.stop();
  }

  append<S extends CatalogStreamSubject>(tx: Prisma.TransactionClient, subject: S, payload: CatalogStreamPayload<S>) {
    return tx.outboxMessage.create({ data: { subject, payload: payload as Prisma.InputJsonValue } });
  }

  /** Publishes what was just committed without waiting for the next poll. */
  flush(): Promise<void> {
    return this.relay?.kick() ?? Promise.resolve();
  }

  async pending(limit: number): Promise<OutboxRecord[]> {
    const rows = await this.prisma.outboxMessage.findMany({
      where: { publishedAt: null },
      orderBy: { id: 'asc' },
      take: limit,
    });
    return rows.map((r) => ({ id: r.id, subject: r.subject, payload: r.payload }));
  }

  async markPublished(ids: bigint[]): Promise<void> {
    await this.prisma.outboxMessage.updateMany({ where: { id: { in: ids } }, data: { publishedAt: new Date() } });
  }
}
