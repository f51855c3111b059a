import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { ConsumerMessages, JsMsg, NatsConnection } from 'nats';
import {
  eventPosition,
  MATCHING_BATCH_SUBJECT,
  MATCHING_STREAM,
  type BookEvent,
  type MatchingEvent,
  type MatchingEventBatch,
  type TradeEvent,
} from '@exchange/contracts';
import { backoff, ensureStream, NATS_CONNECTION, openFeed, storedSeqs } from '@exchange/service-kit';
import { MARKET_DATA_ENV, type MarketDataEnv } from '../config';
import { EngineSources } from '../engine/engine-sources';
import { PriceBackfill } from '../history/price-backfill';
import { PriceHistoryRepository, type PriceRow } from '../history/price-history.repository';
import { CatalogConsumer } from '../markets/catalog-consumer.service';
import { FinerTicks } from '../markets/finer-ticks';
import { MarketRegistry } from '../markets/market-registry';
import { SnapshotRepository } from '../streams/snapshot.repository';
import { FlushPacer } from './flush-pacer';
import { MarketBooks, type BooksState } from './market-books';
import { QuoteWriter } from './quote-writer';
import { takerCollateral } from '../activity/activity-measures';
import { yesTermsOf } from './token-view';

const SNAPSHOT = 'matching';
/** Acknowledge (and write price history) at least this often while a backlog streams in. */
const FLUSH_EVERY = 500;
/** How long a trade of a market the catalog feed has not delivered yet waits for it. */
const UNKNOWN_MARKET_WAIT_MS = 30_000;

/**
 * Builds the in-memory books, last trades and resolutions from the MATCHING stream (a durable consumer),
 * and records every trade into the price history. Start-up loads the last snapshot of the books and
 * restarts the consumer just after its stream position, then waits until the backlog is applied. When
 * the stream no longer holds that position, the books come from order-matching instead, and the
 * consumer starts at the stream's first stored event.
 * A snapshot is saved every SNAPSHOT_INTERVAL_SECONDS when the books changed, and at shutdown.
 */
@Injectable()
export class MatchingConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MatchingConsumer.name);
  private messages?: ConsumerMessages;
  private done?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private savedChanges = -1;
  /** The last applied message not acknowledged yet, and how many are applied since the last ack. */
  private unacked?: JsMsg;
  private unackedCount = 0;
  private rows: PriceRow[] = [];
  private resolved = new Set<string>();
  /** Markets whose book, last trade or resolution changed since the last flush. */
  private changed = new Set<string>();
  /** Aborted at shutdown: loops end, and a wait for order-matching ends at once. */
  private readonly stop = new AbortController();
  /** Quotes are written per flush once every market's were written after catching up. */
  private quotesLive = false;
  /**
   * While MATCHING messages keep coming, flushes start at most every FLUSH_INTERVAL_MS: under load
   * order-matching commits hundreds of batches a second, and a flush per batch cost more than applying
   * it. Quotes then trail the books by at most that much while the stream is busy.
   */
  private readonly pacer: FlushPacer;

  constructor(
    private readonly books: MarketBooks,
    private readonly registry: MarketRegistry,
    private readonly catalog: CatalogConsumer,
    private readonly history: PriceHistoryRepository,
    private readonly snapshots: SnapshotRepository,
    private readonly quotes: QuoteWriter,
    private readonly sources: EngineSources,
    private readonly backfill: PriceBackfill,
    private readonly finerTicks: FinerTicks,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(MARKET_DATA_ENV) private readonly env: MarketDataEnv,
  ) {
    this.pacer = new FlushPacer(() => this.flush(), env.FLUSH_INTERVAL_MS);
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.catalog.ready;
    const saved = await this.snapshots.load<BooksState>(SNAPSHOT);
    const wanted = saved ? saved.streamSeq + 1 : 1;
    const first = await this.firstStoredIfGone(wanted);
    const feed = await openFeed(this.nc, this.env.NATS_PREFIX, {
      stream: MATCHING_STREAM,
      durable: `${this.env.CONSUMER_NAME}-matching`,
      filter: MATCHING_BATCH_SUBJECT,
      startSeq: first ?? wanted,
      restart: true,
      ackAll: true,
    });
    if (first !== undefined) await this.loadEngineBooks(wanted, first);
    else if (saved) this.books.load(saved.state, saved.streamSeq);
    this.messages = feed.messages;
    let caughtUp!: () => void;
    const ready = new Promise<void>((resolve) => (caughtUp = resolve));
    let catchingUp = feed.backlog > 0;
    if (!catchingUp) caughtUp();
    this.done = (async () => {
      for await (const message of feed.messages) {
        await this.handle(message);
        this.unacked = message;
        this.unackedCount++;
        const drained = message.info.pending === 0;
        if (drained || this.unackedCount >= FLUSH_EVERY) this.pacer.request();
        // A backlog is written in large steps (which also holds the feed back), and completely before
        // the books count as ready.
        if (this.unackedCount >= FLUSH_EVERY || (drained && catchingUp)) await this.pacer.drain();
        if (drained && catchingUp) {
          catchingUp = false;
          caughtUp();
        }
      }
    })();
    await ready;
    const all = this.registry.list().map((r) => r.conditionId);
    await this.catalog.refresh(all);
    this.quotesLive = true;
    await this.quotes.write(all);
    this.registry.ready = true;
    this.logger.log(`books ready at MATCHING sequence ${this.books.streamSeq}`);
    await this.backfill.resume();
    this.timer = setInterval(() => void this.saveSnapshot(), this.env.SNAPSHOT_INTERVAL_SECONDS * 1_000);
  }

  /**
   * The stream's first stored sequence when it no longer holds `wanted`, the next one this replica
   * needs: aged out (the stream's limit), or lost with a stream that was recreated (it ends before the
   * snapshot). Those events are only in the engine now.
   */
  private async firstStoredIfGone(wanted: number): Promise<number | undefined> {
    await ensureStream(this.nc, this.env.NATS_PREFIX, MATCHING_STREAM);
    const { first, last } = await storedSeqs(this.nc, this.env.NATS_PREFIX, MATCHING_STREAM);
    return wanted < first || wanted > last + 1 ? Math.max(first, 1) : undefined;
  }

  /**
   * After the consumer exists: every event the stream no longer holds was committed before it was
   * published, so the engine's answer, asked for now, includes it; later ones come through the feed.
   */
  private async loadEngineBooks(wanted: number, first: number): Promise<void> {
    this.logger.warn(
      `MATCHING events from ${wanted} are no longer in the stream (it starts at ${first}): loading the books from ` +
        'order-matching, then the price history from its trades',
    );
    const markets = await this.sources.books(this.stop.signal);
    if (!markets) return;
    this.books.loadFromEngine(markets, first - 1, (tokenId) => this.registry.byToken(tokenId)?.outcome);
    this.logger.log(`loaded ${markets.length} books from order-matching`);
    await this.backfill.require();
  }

  /** Before PostgreSQL and Redis close (their onApplicationShutdown): the last flush and snapshot write to both. */
  async beforeApplicationShutdown(): Promise<void> {
    this.stop.abort();
    clearInterval(this.timer);
    await this.messages?.close();
    await this.done;
    await this.pacer.drain();
    await this.saveSnapshot();
  }

  /** Applies a batch's events in order; a malformed message or event must not stop the feed: it is logged and skipped. */
  private async handle(message: JsMsg): Promise<void> {
    let events: MatchingEvent[];
    try {
      events = message.json<MatchingEventBatch>().events;
      if (!Array.isArray(events)) throw new Error('no events');
    } catch (error) {
      this.logger.error(error instanceof Error ? error : String(error), `message #${message.seq} not applied`);
      return;
    }
    for (const [index, event] of events.entries()) {
      try {
        await this.apply(event, eventPosition(message.seq, index));
      } catch (error) {
        this.logger.error(error instanceof Error ? error : String(error), `event ${index} of message #${message.seq} not applied`);
      }
    }
  }

  private async apply(event: MatchingEvent, position: number): Promise<void> {
    switch (event.type) {
      case 'book':
        return this.applyBook(event.data);
      case 'trade':
        return this.applyTrade(event.data, position);
      case 'market-resolved':
        this.books.applyResolution(event.data);
        this.resolved.add(event.data.conditionId);
        this.changed.add(event.data.conditionId.toLowerCase());
        return;
      // Order events are for the traders' own views (portfolio, user channels), not for market data.
    }
  }

  private applyBook(event: BookEvent): void {
    this.changed.add(event.conditionId.toLowerCase());
    if (this.books.applyBook(event) === 'gap') {
      const book = this.books.tape(event.conditionId).book;
      this.logger.warn(`book of ${event.conditionId}: gap before bookSeq ${event.bookSeq} (${book.missing.size} missing)`);
    }
  }

  private async applyTrade(event: TradeEvent, position: number): Promise<void> {
    let token = this.registry.byToken(event.tokenId);
    for (const deadline = Date.now() + UNKNOWN_MARKET_WAIT_MS; !token && Date.now() < deadline && !this.stop.signal.aborted; ) {
      await new Promise((r) => setTimeout(r, 100));
      token = this.registry.byToken(event.tokenId);
    }
    if (!token) throw new Error(`trade ${event.id} of unknown token ${event.tokenId}`);
    const { price, side } = yesTermsOf(event, token.outcome);
    const conditionId = token.market.conditionId;
    this.books.applyTrade(conditionId, { price, side, seq: position, time: event.matchTime });
    // Live trades only: a replay at start-up would ask again for what was settled long ago.
    if (this.quotesLive) this.finerTicks.traded(conditionId, price);
    this.changed.add(conditionId);
    this.rows.push({ tradeId: event.id, conditionId, timeMs: event.matchTime, price, streamSeq: position, notional: takerCollateral(event) });
  }

  /**
   * Writes the price history and quotes of the messages applied so far, then acknowledges them. Takes
   * them over first: messages applied while it runs go to the next flush.
   */
  private async flush(): Promise<void> {
    const { rows, resolved, changed, unacked: last } = this;
    this.rows = [];
    this.resolved = new Set();
    this.changed = new Set();
    this.unacked = undefined;
    this.unackedCount = 0;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.history.insert(rows);
        if (resolved.size) await this.catalog.refresh(resolved);
        // Before catching up, every market is written once at the end instead.
        if (this.quotesLive && changed.size) await this.quotes.write(changed);
        break;
      } catch (error) {
        // Not acknowledged: the stream delivers these messages again after the restart.
        if (this.stop.signal.aborted) return;
        if (attempt % 10 === 0) this.logger.warn(`price history not written, retrying: ${String(error)}`);
        await backoff(attempt, 100);
      }
    }
    // The consumer acknowledges cumulatively: the last message stands for the whole batch.
    last?.ack();
    if (last) this.books.streamSeq = Math.max(this.books.streamSeq, last.seq);
  }

  private async saveSnapshot(): Promise<void> {
    const changes = this.books.changes;
    if (changes === this.savedChanges || this.books.streamSeq === 0) return;
    try {
      // The state may be ahead of streamSeq (applied, not flushed yet): replaying those is harmless.
      await this.snapshots.save(SNAPSHOT, this.books.streamSeq, this.books.toState());
      this.savedChanges = changes;
    } catch (error) {
      this.logger.warn(`books snapshot not saved: ${String(error)}`);
    }
  }
}
