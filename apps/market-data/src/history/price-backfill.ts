import { Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { backoff } from '@exchange/service-kit';
import { takerCollateral } from '../activity/activity-measures';
import { yesTermsOf } from '../books/token-view';
import { EngineSources } from '../engine/engine-sources';
import { MarketRegistry } from '../markets/market-registry';
import { SnapshotRepository } from '../streams/snapshot.repository';
import { PriceHistoryRepository, type PriceRow } from './price-history.repository';

/** The progress row in stream_snapshots: its stream_seq counts pages, its state holds the cursor. */
const PROGRESS = 'price-backfill';

interface Progress {
  /** The last trade id written; null before the first page. */
  after: string | null;
}

/**
 * Refills the price history from order-matching's trades when the MATCHING stream no longer holds
 * trades this replica never recorded. It runs in the background once the service is ready (reads of
 * the history answer meanwhile with what is there), page by page, its cursor saved after each, so that
 * a restart resumes it; rows are written idempotently, so a trade the stream also delivers, or another
 * replica's refill, is recorded once.
 */
@Injectable()
export class PriceBackfill implements BeforeApplicationShutdown {
  private readonly logger = new Logger(PriceBackfill.name);
  private running?: Promise<void>;
  /** Aborted at shutdown: loops end, and a wait for order-matching ends at once. */
  private readonly stop = new AbortController();

  constructor(
    private readonly sources: EngineSources,
    private readonly history: PriceHistoryRepository,
    private readonly snapshots: SnapshotRepository,
    private readonly registry: MarketRegistry,
  ) {}

  /** Records that a refill is needed; an unfinished one goes on from where it was instead. */
  async require(): Promise<void> {
    await this.snapshots.save<Progress>(PROGRESS, 1, { after: null });
  }

  /** Starts the refill recorded as needed, if any. */
  async resume(): Promise<void> {
    const saved = await this.snapshots.load<Progress>(PROGRESS);
    if (saved) this.running = this.run(saved.streamSeq, saved.state.after).finally(() => (this.running = undefined));
  }

  /**
   * A refill from the first trade, now (events were lost while running), unless one runs: that one
   * reaches the newest trades too, those lost included.
   */
  async refill(): Promise<void> {
    if (this.running) return;
    await this.require();
    await this.resume();
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stop.abort();
    await this.running;
  }

  private async run(pages: number, after: string | null): Promise<void> {
    this.logger.log(`refilling the price history from order-matching's trades${after ? ` after ${after}` : ''}`);
    let written = 0;
    let unknown = 0;
    for (let attempt = 0; !this.stop.signal.aborted; ) {
      try {
        const page = await this.sources.trades(after, this.stop.signal);
        if (!page) return;
        const rows = page.trades.flatMap((trade): PriceRow[] => {
          const token = this.registry.byToken(trade.tokenId);
          if (!token) {
            // A market the catalog never announced has no price history to show.
            unknown++;
            return [];
          }
          const price = yesTermsOf(trade, token.outcome).price;
          return [{ tradeId: trade.id, conditionId: trade.conditionId, timeMs: trade.matchTime, price, streamSeq: 0, notional: takerCollateral(trade) }];
        });
        await this.history.refill(rows);
        written += rows.length;
        if (page.next === null) {
          await this.snapshots.remove(PROGRESS);
          this.logger.log(`price history refilled: ${written} trades written, ${unknown} of unknown tokens skipped`);
          return;
        }
        after = page.next;
        await this.snapshots.save<Progress>(PROGRESS, ++pages, { after });
        attempt = 0;
      } catch (error) {
        if (attempt++ % 10 === 0) this.logger.warn(`price history refill interrupted, retrying: ${String(error)}`);
        await backoff(attempt, 100);
      }
    }
  }
}
