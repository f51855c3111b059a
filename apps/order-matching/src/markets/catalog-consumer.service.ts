import { randomBytes } from 'node:crypto';
import { Inject, Injectable, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { CATALOG_STREAM, marketSnapshot, type MarketSnapshot } from '@exchange/contracts';
import { applyFeed, FeedWatch, MESSAGING_ENV, NATS_CONNECTION, openFeed, type BaseEnv, type FeedPosition } from '@exchange/service-kit';
import { EngineService, FATAL_HANDLER, type FatalHandler } from '../engine-host/engine.service';
import { applySnapshot, marketFromRow, rowFromSnapshot } from './market-record';

const POSITION_KEY = 'catalog-feed-position';

/**
 * Keeps the engine's markets in step with the catalog: a durable JetStream consumer of the catalog's
 * market events. Start-up waits until the backlog is applied, so that no order meets a market the
 * catalog already announced but the engine does not know yet. When the consumer or the stream is
 * deleted, the process exits (the fatal handler) to start again with a new consumer: it went on
 * without learning of new markets until the twenty-fourth session. The feed's position is stored with
 * each snapshot (settings, `catalog-feed-position`) and is where each start takes the feed up, so that
 * a database restored from a backup learns the markets made after it: the consumer's position, kept by
 * NATS, was past them (docs/operations.md).
 */
@Injectable()
export class CatalogConsumer implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly feed = new FeedWatch();

  constructor(
    private readonly engine: EngineService,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(MESSAGING_ENV) private readonly env: BaseEnv,
    @Inject(FATAL_HANDLER) private readonly onFatal: FatalHandler,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    // The consumer's position belongs to this database: a new database replays the catalog.
    const feed = await openFeed(this.nc, this.env.NATS_PREFIX, {
      stream: CATALOG_STREAM,
      durable: `order-matching-${await this.instanceId()}`,
      filter: 'catalog.evt.market.>',
      restart: false,
      soleReader: true,
      endWhenGone: true,
      ownerCreatesStream: true,
      appliedUpTo: await this.storedPosition(),
    });
    const applied = applyFeed(feed, (data, takeUpAt) => this.apply(marketSnapshot.parse(data), takeUpAt), 'catalog market event');
    this.feed.watch(feed.messages, applied.done, 'catalog feed', () => this.onFatal(new Error('the catalog feed ended')));
    await applied.ready;
  }

  /** Before the engine's pools close (its onApplicationShutdown). */
  async beforeApplicationShutdown(): Promise<void> {
    await this.feed.close();
  }

  private async instanceId(): Promise<string> {
    const candidate = randomBytes(6).toString('hex');
    await this.engine.pool.query("INSERT INTO settings (key, value) VALUES ('instance-id', $1) ON CONFLICT (key) DO NOTHING", [candidate]);
    const row = await this.engine.pool.query<{ value: string }>("SELECT value FROM settings WHERE key = 'instance-id'");
    return row.rows[0]!.value;
  }

  /** Null for a database that applied nothing yet (new, or from before positions were stored): the feed starts at the stream's start. */
  private async storedPosition(): Promise<FeedPosition | null> {
    const row = await this.engine.pool.query<{ value: string }>(`SELECT value FROM settings WHERE key = '${POSITION_KEY}'`);
    return row.rows[0] ? (JSON.parse(row.rows[0].value) as FeedPosition) : null;
  }

  /**
   * Stores and applies a snapshot unless a newer one (the catalog's `updatedAt`) was applied already: a
   * snapshot delivered before a crash and not acknowledged comes again later, after newer ones. The
   * feed's position is stored in the same statement.
   */
  private async apply(snapshot: MarketSnapshot, position: FeedPosition): Promise<void> {
    const row = rowFromSnapshot(snapshot);
    const upsert = `WITH position AS (
         INSERT INTO settings (key, value) VALUES ('${POSITION_KEY}', $14) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value
       )
       INSERT INTO markets (condition_id, token_ids, outcomes, tick_size, min_order_size, neg_risk, fee_rate_ppm, fee_exponent,
         fee_taker_only, rebate_rate_ppm, accepting_orders, catalog_updated_at, neg_risk_market_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)
       ON CONFLICT (condition_id) DO UPDATE SET tick_size = EXCLUDED.tick_size, min_order_size = EXCLUDED.min_order_size,
         neg_risk = EXCLUDED.neg_risk, neg_risk_market_id = EXCLUDED.neg_risk_market_id, fee_rate_ppm = EXCLUDED.fee_rate_ppm, fee_exponent = EXCLUDED.fee_exponent,
         fee_taker_only = EXCLUDED.fee_taker_only, rebate_rate_ppm = EXCLUDED.rebate_rate_ppm,
         accepting_orders = EXCLUDED.accepting_orders AND markets.winning_outcome = -1,
         catalog_updated_at = EXCLUDED.catalog_updated_at, updated_at = now()
       WHERE markets.catalog_updated_at IS NULL OR markets.catalog_updated_at <= EXCLUDED.catalog_updated_at`;
    const values = [
      row.condition_id,
      row.token_ids,
      row.outcomes,
      row.tick_size,
      row.min_order_size,
      row.neg_risk,
      row.fee_rate_ppm,
      row.fee_exponent,
      row.fee_taker_only,
      row.rebate_rate_ppm,
      row.accepting_orders,
      new Date(snapshot.updatedAt),
      row.neg_risk_market_id,
      JSON.stringify(position),
    ];
    const written = await this.engine.fencedWrite((client) => client.query(upsert, values));
    if (written.rowCount === 0) return;
    const known = this.engine.state.markets.get(row.condition_id);
    if (known) applySnapshot(known, snapshot);
    else this.engine.state.addMarket(marketFromRow({ ...row, winning_outcome: -1, book_seq: '0' }));
  }
}
