import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { CATALOG_STREAM, type CatalogStreamPayload, type CatalogStreamSubject } from '@exchange/contracts';
import {
  HealthChecks,
  MESSAGING_ENV,
  NATS_CONNECTION,
  OutboxRelay,
  type BaseEnv,
  type OutboxRecord,
  type OutboxStore,
} from '@exchange/service-kit';
import type { Prisma } from '../generated/prisma/client';
import { PrismaService } from '../prisma/prisma.service';
import { appendEverySnapshot } from './every-snapshot';

/** How long a published row stays (its message is in the stream, which keeps everything), and how often they are pruned. */
const PUBLISHED_KEPT_MS = 24 * 3_600_000;
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * The catalog's outbox: change events written in the same transaction as the change. Published rows
 * are deleted a day later (they were kept for good, one per change, each with its snapshot; found by a
 * soak): the stream holds the messages, and a day of rows still says what went out when.
 */
@Injectable()
export class CatalogOutbox implements OutboxStore, OnModuleInit, BeforeApplicationShutdown {
  private readonly logger = new Logger(CatalogOutbox.name);
  private relay?: OutboxRelay;
  private pruner?: NodeJS.Timeout;

  constructor(
    private readonly prisma: PrismaService,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(MESSAGING_ENV) private readonly env: BaseEnv,
    health: HealthChecks,
  ) {
    health.add('outbox', () => this.relay?.failing);
  }

  async onModuleInit(): Promise<void> {
    this.relay = new OutboxRelay(this.nc, this.env.NATS_PREFIX, this, {
      ...CATALOG_STREAM,
      onCreated: async () => {
        const markets = await appendEverySnapshot(this.prisma, this);
        if (markets > 0) this.logger.warn(`stream CATALOG created while the catalog holds ${markets} markets: every market's and event's snapshot written into it again`);
      },
      highestRowId: async () => {
        const [row] = await this.prisma.$queryRaw<{ last_value: bigint }[]>`SELECT last_value FROM outbox_id_seq`;
        return row!.last_value;
      },
    });
    await this.relay.start();
    const prune = () => this.prune(Date.now()).catch((error) => this.logger.warn(`published outbox rows not pruned, again in 10 minutes: ${String(error)}`));
    this.pruner = setInterval(() => void prune(), PRUNE_EVERY_MS).unref();
  }

  /** Before PostgreSQL and NATS close (onApplicationShutdown): a publish in progress marks its rows. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.pruner);
    await this.relay?.stop();
  }

  /** Deletes the rows published more than a day before `now` (ms); answers how many. */
  async prune(now: number): Promise<number> {
    const { count } = await this.prisma.outboxMessage.deleteMany({ where: { publishedAt: { lt: new Date(now - PUBLISHED_KEPT_MS) } } });
    return count;
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
