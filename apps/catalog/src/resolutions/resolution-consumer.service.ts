import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { z } from 'zod';
import { MATCHING_MARKET_RESOLVED_SUBJECT, MATCHING_STREAM, marketResolvedMessage, type BookSnapshotsPage } from '@exchange/contracts';
import { applyFeed, FeedWatch, MESSAGING_ENV, NATS_CONNECTION, openFeed, PROCESS_EXIT, requestUntilAnswered, RpcClient, type BaseEnv, type ProcessExit } from '@exchange/service-kit';
import { ResolutionWriter } from './resolution-writer';

/**
 * Versions before 2026-11-25 published every event on its own subject, a resolution on this one without
 * `batchId`: after an upgrade from one of them the stream still holds those, which were logged as
 * malformed errors (found by an upgrade probe) though they say the same.
 */
const resolutionOfAnyVersion = marketResolvedMessage.partial({ batchId: true });

/**
 * The durable consumer of the catalog's replicas: they share one database, so each resolution is
 * applied once, by whichever replica receives it.
 */
const DURABLE = 'catalog-resolutions';

/**
 * Closes in the catalog the markets order-matching resolves (docs/catalog.md, "Resolutions"): a durable
 * consumer of MATCHING_MARKET_RESOLVED_SUBJECT, each message acknowledged once its transaction committed.
 * At every start it also asks order-matching which markets are resolved, in the background, for
 * resolutions the stream no longer holds (the catalog was away longer than the stream keeps them).
 */
@Injectable()
export class ResolutionConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ResolutionConsumer.name);
  private readonly feed = new FeedWatch();
  private reconciled?: Promise<void>;

  constructor(
    private readonly writer: ResolutionWriter,
    private readonly rpc: RpcClient,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(MESSAGING_ENV) private readonly env: BaseEnv,
    @Inject(PROCESS_EXIT) private readonly exit: ProcessExit,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // openFeed creates the MATCHING stream when the catalog starts before order-matching, its owner.
    const feed = await openFeed(this.nc, this.env.NATS_PREFIX, {
      stream: MATCHING_STREAM,
      durable: DURABLE,
      filter: MATCHING_MARKET_RESOLVED_SUBJECT,
      restart: false,
      endWhenGone: true,
    });
    // A deleted consumer or stream delivers nothing more: start again, which also reconciles.
    this.feed.watch(feed.messages, applyFeed(feed, (data) => this.apply(data), 'market resolution').done, 'resolution feed', this.exit);
    this.reconciled = this.reconcile().catch((error: unknown) =>
      this.logger.warn(`resolved markets not reconciled with order-matching (again at the next start): ${String(error)}`),
    );
  }

  /** Before PostgreSQL closes (onApplicationShutdown): a resolution being applied commits first. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.feed.close();
    await this.reconciled;
  }

  private async apply(data: unknown): Promise<void> {
    const parsed = resolutionOfAnyVersion.safeParse(data);
    // Redelivering a malformed message would never help: it is logged and acknowledged.
    if (!parsed.success) return void this.logger.error(`malformed market resolution skipped: ${z.prettifyError(parsed.error)}`);
    const { conditionId, batchId } = parsed.data;
    if ((await this.writer.apply(conditionId)) === 'unknown') {
      this.logger.warn(`resolution of market ${conditionId} (batch ${batchId ?? 'of an older version'}) skipped: the catalog has no such market`);
    }
  }

  /** Applies every resolution order-matching holds, a page of markets at a time; those already applied change nothing. */
  private async reconcile(): Promise<void> {
    let after: string | null = null;
    let closed = 0;
    const unknown: string[] = [];
    do {
      const page: BookSnapshotsPage | undefined = await requestUntilAnswered(this.rpc, 'matching.books.snapshots.v1', after === null ? {} : { after }, this.feed.signal, this.logger);
      if (!page) return;
      for (const market of page.markets) {
        if (market.winningOutcome === -1 || this.feed.signal.aborted) continue;
        const outcome = await this.writer.apply(market.conditionId);
        if (outcome === 'closed') closed++;
        if (outcome === 'unknown') unknown.push(market.conditionId);
      }
      after = page.next;
    } while (after !== null);
    if (closed) this.logger.warn(`closed ${closed} markets order-matching had resolved while the catalog did not hear of it`);
    if (unknown.length) this.logger.warn(`order-matching resolved ${unknown.length} markets the catalog does not have: ${unknown.slice(0, 5).join(', ')}`);
  }
}
