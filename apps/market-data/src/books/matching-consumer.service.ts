import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { JsMsg, NatsConnection } from 'nats';
import {
  eventPosition,
  MATCHING_BATCH_SUBJECT,
  MATCHING_STREAM,
  type BookEvent,
  type MatchingEvent,
  type MatchingEventBatch,
  type TradeEvent,
} from '@exchange/contracts';
import { backoff, ensureStream, FeedWatch, NATS_CONNECTION, openFeed, PROCESS_EXIT, storedSeqs, untilDatabaseAvailable, type ProcessExit } from '@exchange/service-kit';
import { MARKET_DATA_ENV, type MarketDataEnv } from '../config';
import { EngineSources } from '../engine/engine-sources';
import { PriceBackfill } from '../history/price-backfill';
import { PriceHistoryRepository, type PriceRow } from '../history/price-history.repository';
import { CatalogConsumer } from '../markets/catalog-consumer.service';
import { FinerTicks } from '../markets/finer-ticks';
import { MarketRegistry } from '../markets/market-registry';
import { SnapshotRepository } from '../streams/snapshot.repository';
import { FlushPacer } from './flush-pacer';
import { GapWatch } from './gap-watch';
import { MarketBooks, type BooksState } from './market-books';
import { rowIdOf, RowIdWatch, storedRowId } from './outbox-row-ids';
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
 * The books are loaded from order-matching again while running when its outbox row ids go back (its
 * database restored from a backup) or a gap in a book's bookSeqs stays open (events lost); when the
 * consumer or the stream is deleted, the process exits to start again (docs/market-data.md, "Recovery").
 * A snapshot is saved every SNAPSHOT_INTERVAL_SECONDS when the books changed, and at shutdown.
 */
@Injectable()
export class MatchingConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(MatchingConsumer.name);
  private timer?: NodeJS.Timeout;
  private savedChanges = -1;
  /** The last applied message not acknowledged yet, and how many are applied since the last ack. */
  private unacked?: JsMsg;
  private unackedCount = 0;
  private rows: PriceRow[] = [];
  private resolved = new Set<string>();
  /** Markets whose book, last trade or resolution changed since the last flush. */
  private changed = new Set<string>();
  /** Its signal is aborted at shutdown: loops end, and a wait for order-matching ends at once. */
  private readonly feed = new FeedWatch();
  /** Quotes are written per flush once every market's were written after catching up. */
  private quotesLive = false;
  /**
   * While MATCHING messages keep coming, flushes start at most every FLUSH_INTERVAL_MS: under load
   * order-matching commits hundreds of batches a second, and a flush per batch cost more than applying
   * it. Quotes then trail the books by at most that much while the stream is busy.
   */
  private readonly pacer: FlushPacer;
  private rowIds = new RowIdWatch();
  private readonly gaps: GapWatch;
  /** Messages and reloads of the books run one after another, never interleaved (`reloadBooks`). */
  private serial: Promise<unknown> = Promise.resolve();
  /** The reload for stale gaps, queued or running: one covers every market. */
  private gapReload?: Promise<void>;

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
    @Inject(PROCESS_EXIT) private readonly exit: ProcessExit,
  ) {
    this.pacer = new FlushPacer(() => this.flush(), env.FLUSH_INTERVAL_MS);
    this.gaps = new GapWatch(env.BOOK_GAP_GRACE_MS, (conditionId, before) => this.gapStale(conditionId, before));
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.catalog.ready;
    // Waits for an unavailable database as the markets' load does (CatalogConsumer).
    const saved = await untilDatabaseAvailable(this.logger, 'loading the books snapshot', () => this.snapshots.load<BooksState>(SNAPSHOT));
    const wanted = saved ? saved.streamSeq + 1 : 1;
    const first = await this.firstStoredIfGone(wanted, saved?.takenAtMs);
    const feed = await openFeed(this.nc, this.env.NATS_PREFIX, {
      stream: MATCHING_STREAM,
      durable: `${this.env.CONSUMER_NAME}-matching`,
      filter: MATCHING_BATCH_SUBJECT,
      startSeq: first ?? wanted,
      restart: true,
      ackAll: true,
      endWhenGone: true,
    });
    if (first !== undefined) await this.loadEngineBooks(wanted, first);
    else if (saved) {
      this.books.load(saved.state, saved.streamSeq);
      // Read from the stream rather than kept in the snapshot, whose books may be ahead of its position:
      // the replayed messages after it would then look like a regression.
      this.rowIds = new RowIdWatch(await storedRowId(this.nc, this.env.NATS_PREFIX, saved.streamSeq));
      for (const conditionId of this.books.incomplete()) this.gaps.opened(conditionId, this.books.tape(conditionId).book.lastSeq + 1);
    }
    let caughtUp!: () => void;
    const ready = new Promise<void>((resolve) => (caughtUp = resolve));
    let catchingUp = feed.backlog > 0;
    if (!catchingUp) caughtUp();
    const done = (async () => {
      for await (const message of feed.messages) {
        await this.exclusive(() => this.receive(message));
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
    this.feed.watch(feed.messages, done, 'MATCHING feed', this.exit);
    await ready;
    const all = this.registry.list().map((r) => r.conditionId);
    await this.catalog.refresh(all);
    this.quotesLive = true;
    await this.quotes.write(all);
    this.registry.ready = true;
    this.logger.log(`books ready at MATCHING sequence ${this.books.streamSeq}`);
    await untilDatabaseAvailable(this.logger, 'resuming the price history refill', () => this.backfill.resume());
    this.timer = setInterval(() => void this.saveSnapshot(), this.env.SNAPSHOT_INTERVAL_SECONDS * 1_000);
  }

  /**
   * The stream's first stored sequence when it no longer holds `wanted`, the next one this replica
   * needs: aged out (the stream's limit), or lost with a stream that was recreated (it ends before the
   * snapshot, or it was created after the snapshot was taken). Those events are only in the engine now.
   */
  private async firstStoredIfGone(wanted: number, takenAtMs: number | undefined): Promise<number | undefined> {
    await ensureStream(this.nc, this.env.NATS_PREFIX, MATCHING_STREAM);
    const { first, last, createdMs } = await storedSeqs(this.nc, this.env.NATS_PREFIX, MATCHING_STREAM);
    // A snapshot older than the stream holds a position in an earlier stream of that name, even where the
    // new one has grown past it (its start then resumed in the middle of the new stream: a probe).
    const earlierStream = takenAtMs !== undefined && createdMs > takenAtMs;
    return earlierStream || wanted < first || wanted > last + 1 ? Math.max(first, 1) : undefined;
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
    const markets = await this.sources.books(this.feed.signal);
    if (!markets) return;
    this.books.loadFromEngine(markets, first - 1, (tokenId) => this.registry.byToken(tokenId)?.outcome);
    this.logger.log(`loaded ${markets.length} books from order-matching`);
    // Saved at once at their position: an old snapshot (its position in a recreated stream, or in the
    // same one before the aged-out events) would otherwise be what a restart before the next save
    // starts from (saves only move forward); without any, a restart replayed the new stream onto empty
    // books (a probe).
    await this.snapshots.remove(SNAPSHOT);
    await this.snapshots.save(SNAPSHOT, first - 1, this.books.toState());
    await this.backfill.require();
  }

  /** Before PostgreSQL and Redis close (their onApplicationShutdown): the last flush and snapshot write to both. */
  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.gaps.clear();
    await this.feed.close();
    await this.pacer.drain();
    await this.saveSnapshot();
  }

  /** Runs `task` once everything queued before it ran. */
  private exclusive<T>(task: () => Promise<T>): Promise<T> {
    const run = this.serial.then(task);
    this.serial = run.catch(() => undefined);
    return run;
  }

  /** Applies a message, after loading the books from order-matching when its row id went back (RowIdWatch). */
  private async receive(message: JsMsg): Promise<void> {
    const id = rowIdOf(message);
    const highest = this.rowIds.regression(id);
    if (highest !== undefined) {
      // The same id again is a row published anew, not an earlier one (a restore probe read "from 61 to 61").
      const what = id === highest ? `MATCHING row id ${id} came again` : `MATCHING row ids went back from ${highest} to ${id}`;
      this.logger.warn(
        `${what}: order-matching's database is older than the events already ` +
          'applied (restored from a backup?) or republished rows; loading the books from order-matching',
      );
      await this.reloadBooks();
    }
    await this.handle(message);
  }

  /**
   * Replaces every book with order-matching's; runs between two messages (`exclusive`). The engine
   * commits a batch before publishing it, so its answer, asked for now, holds every message applied or
   * received so far (those waiting in the feed are then skipped as duplicates) and later ones apply on
   * top. The stream position stays the last acknowledged one: messages applied since still have their
   * trades to write and their ack to send at the next flush, and books ahead of their position are
   * harmless (replays are). The last trades come from the engine, below any trade event.
   */
  private async reloadBooks(): Promise<void> {
    this.gaps.clear();
    const markets = await this.sources.books(this.feed.signal);
    if (!markets) return;
    this.books.loadFromEngine(markets, this.books.streamSeq, (tokenId) => this.registry.byToken(tokenId)?.outcome);
    this.logger.log(`loaded ${markets.length} books from order-matching`);
    // Quotes and hot metadata (accepting orders: resolutions) of every market, as the engine has them.
    for (const { conditionId } of this.registry.list()) {
      this.changed.add(conditionId.toLowerCase());
      this.resolved.add(conditionId);
    }
    this.pacer.request();
  }

  /**
   * A gap still open after its grace period: its events are lost, and only order-matching knows the
   * book now. The trades they held are refilled into the price history as at start-up.
   */
  private gapStale(conditionId: string, before: number): void {
    if (!this.books.peek(conditionId)?.book.missesBefore(before)) return;
    this.logger.warn(
      `book of ${conditionId}: events before bookSeq ${before} still missing after ${this.env.BOOK_GAP_GRACE_MS} ms (lost from the ` +
        'stream); loading the books from order-matching',
    );
    this.gapReload ??= this.exclusive(async () => {
      // A reload since (a regression's) may have closed every gap already.
      if (this.books.incomplete().length === 0) return;
      await this.reloadBooks();
      await this.backfill.refill();
    })
      .catch((error: unknown) => this.logger.error(`books not loaded from order-matching: ${String(error)}`))
      .finally(() => (this.gapReload = undefined));
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
      // Order and money-move events are for the traders' own views (portfolio, user channels), not for market data.
    }
  }

  private applyBook(event: BookEvent): void {
    this.changed.add(event.conditionId.toLowerCase());
    if (this.books.applyBook(event) === 'gap') {
      const book = this.books.tape(event.conditionId).book;
      this.logger.warn(`book of ${event.conditionId}: gap before bookSeq ${event.bookSeq} (${book.missing.size} missing)`);
      this.gaps.opened(event.conditionId, event.bookSeq);
    }
  }

  private async applyTrade(event: TradeEvent, position: number): Promise<void> {
    let token = this.registry.byToken(event.tokenId);
    for (const deadline = Date.now() + UNKNOWN_MARKET_WAIT_MS; !token && Date.now() < deadline && !this.feed.signal.aborted; ) {
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
      // Named in the warning: a probe saw a Redis outage reported as the price history's (PostgreSQL's).
      let step = 'price history (PostgreSQL)';
      try {
        await this.history.insert(rows);
        step = "resolved markets' terms";
        if (resolved.size) await this.catalog.refresh(resolved);
        step = 'quotes (Redis)';
        // Before catching up, every market is written once at the end instead.
        if (this.quotesLive && changed.size) await this.quotes.write(changed);
        break;
      } catch (error) {
        // Not acknowledged: the stream delivers these messages again after the restart.
        if (this.feed.signal.aborted) return;
        if (attempt % 10 === 0) this.logger.warn(`${step} not written, retrying: ${String(error)}`);
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
