import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { JSONCodec, type NatsConnection } from 'nats';
import {
  CATALOG_STREAM,
  formatUnits,
  MARKETDATA_STREAM,
  MARKETDATA_SUBJECTS,
  marketSnapshot,
  type MarketSnapshot,
  type TickSizeChangedEvent,
} from '@exchange/contracts';
import {
  applyFeed,
  FeedWatch,
  ensureStream,
  NATS_CONNECTION,
  openFeed,
  prefixed,
  PROCESS_EXIT,
  untilDatabaseAvailable,
  type FeedPosition,
  type ProcessExit,
} from '@exchange/service-kit';
import { MarketBooks } from '../books/market-books';
import { QuoteWriter } from '../books/quote-writer';
import { MARKET_DATA_ENV, type MarketDataEnv } from '../config';
import { isAcceptingOrders } from './clob-market.presenter';
import { HotMetadataWriter } from './hot-metadata.writer';
import { MarketRepository } from './market.repository';
import { MarketRegistry, type MarketRecord } from './market-registry';

const codec = JSONCodec();

/**
 * Keeps every market's CLOB settings from the catalog's market snapshots (a durable JetStream consumer):
 * in the database, in memory and in Redis (hot metadata). A tick size change is published on the
 * MARKETDATA stream. Start-up loads the database first, then waits until the backlog is applied. When
 * the consumer or the stream is deleted, the process exits to start again with a new consumer. The
 * feed's position is stored with each snapshot and is where each start takes the feed up, so that a
 * database restored from a backup learns the markets made after it (NATS's consumer position is past
 * them).
 */
@Injectable()
export class CatalogConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(CatalogConsumer.name);
  private readonly feed = new FeedWatch();
  private caughtUp!: () => void;
  /** Resolves once the markets the catalog had published at start are known. */
  readonly ready = new Promise<void>((resolve) => (this.caughtUp = resolve));

  constructor(
    private readonly registry: MarketRegistry,
    private readonly books: MarketBooks,
    private readonly markets: MarketRepository,
    private readonly hot: HotMetadataWriter,
    private readonly quotes: QuoteWriter,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(MARKET_DATA_ENV) private readonly env: MarketDataEnv,
    @Inject(PROCESS_EXIT) private readonly exit: ProcessExit,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // A database unavailable at start (down, out of connections) is waited for: exiting waited out the
    // supervisor's growing restart delays, up to 16 s after it was back (a resource-limits probe).
    const [rows, appliedUpTo] = await untilDatabaseAvailable(this.logger, 'loading the markets', () =>
      Promise.all([this.markets.loadAll(), this.markets.feedPosition()]),
    );
    for (const row of rows) this.registry.put(row.snapshot, row.rewards);
    await this.hot.writeDefaultFeeRate();
    await this.hot.write(this.registry.list().map((record) => this.hotEntry(record)));
    this.logger.log(`${this.registry.size} markets loaded`);
    await ensureStream(this.nc, this.env.NATS_PREFIX, MARKETDATA_STREAM);
    const feed = await openFeed(this.nc, this.env.NATS_PREFIX, {
      stream: CATALOG_STREAM,
      durable: `${this.env.CONSUMER_NAME}-catalog`,
      filter: 'catalog.evt.market.>',
      restart: false,
      soleReader: true,
      endWhenGone: true,
      ownerCreatesStream: true,
      // A database with no market (new) reads the stream from its beginning: the consumer's position,
      // kept by NATS, may be at its end (until the twenty-fourth session such a start learnt no market).
      appliedUpTo: this.registry.size === 0 ? null : (appliedUpTo ?? null),
    });
    const applied = applyFeed(feed, (data, takeUpAt) => this.apply(marketSnapshot.parse(data), takeUpAt), 'catalog market event');
    this.feed.watch(feed.messages, applied.done, 'catalog feed', this.exit);
    void applied.ready.then(this.caughtUp);
    await this.ready;
  }

  /** Before PostgreSQL and Redis close (their onApplicationShutdown): the snapshot being applied writes to both. */
  async beforeApplicationShutdown(): Promise<void> {
    await this.feed.close();
  }

  /** Redis hashes of a market changed by the MATCHING stream (resolution). */
  async refresh(conditionIds: Iterable<string>): Promise<void> {
    const records = [...conditionIds].flatMap((id) => {
      const record = this.registry.get(id);
      return record ? [this.hotEntry(record)] : [];
    });
    await this.hot.write(records);
  }

  private async apply(snapshot: MarketSnapshot, position: FeedPosition): Promise<void> {
    const stored = await this.markets.upsert(snapshot, position);
    if (!stored) return; // an older snapshot than the one held
    const put = this.registry.put(snapshot);
    if (!put) return;
    await this.hot.write([this.hotEntry(put.record)]);
    if (this.registry.ready) await this.quotes.write([put.record.conditionId]);
    const previous = stored.previousTickSize;
    if (previous !== null && previous !== snapshot.tickSizeUnits) await this.publishTickSizeChange(put.record, previous);
  }

  private async publishTickSizeChange(record: MarketRecord, previous: number): Promise<void> {
    const event: TickSizeChangedEvent = {
      conditionId: record.conditionId,
      tokenIds: record.snapshot.tokenIds,
      oldTickSize: formatUnits(previous),
      newTickSize: formatUnits(record.snapshot.tickSizeUnits),
      timestamp: Date.parse(record.snapshot.updatedAt),
    };
    // One message per change, however many replicas saw it: the stream drops the duplicates.
    await this.nc.jetstream().publish(prefixed(this.env.NATS_PREFIX, MARKETDATA_SUBJECTS.tickSizeChanged), codec.encode(event), {
      msgID: `tick-size:${record.conditionId}:${record.snapshot.updatedAt}`,
    });
    this.logger.log(`tick size of ${record.conditionId}: ${event.oldTickSize} -> ${event.newTickSize}`);
  }

  private hotEntry(record: MarketRecord) {
    return { record, acceptingOrders: isAcceptingOrders(record, this.books.peek(record.conditionId)) };
  }
}
