import { Injectable } from '@nestjs/common';
import type { MarketSnapshot, Rewards } from '@exchange/contracts';
import type { FeedPosition } from '@exchange/service-kit';
import { PrismaService } from '../prisma/prisma.service';

const CATALOG_FEED = 'catalog';

/** The markets table: the catalog's snapshots as received, and the operator's rewards. */
@Injectable()
export class MarketRepository {
  constructor(private readonly prisma: PrismaService) {}

  async loadAll(): Promise<{ snapshot: MarketSnapshot; rewards: Rewards }[]> {
    const rows = await this.prisma.market.findMany({ orderBy: { marketId: 'asc' } });
    return rows.map((row) => ({ snapshot: row.snapshot as unknown as MarketSnapshot, rewards: row.rewards as unknown as Rewards }));
  }

  /** What the catalog feed applied last (`feedPositions`). */
  async feedPosition(): Promise<FeedPosition | undefined> {
    const row = await this.prisma.feedPosition.findUnique({ where: { feed: CATALOG_FEED } });
    return row ? { streamCreated: row.streamCreated, seq: Number(row.seq) } : undefined;
  }

  /**
   * Stores a snapshot unless a newer one of the market is stored (a replayed message), and the feed's
   * position in the same statement. Answers null when nothing changed, otherwise the tick size stored
   * before (null for a new market).
   */
  async upsert(snapshot: MarketSnapshot, position: FeedPosition): Promise<{ previousTickSize: number | null } | null> {
    const conditionId = snapshot.conditionId.toLowerCase();
    const json = JSON.stringify(snapshot);
    const rows = await this.prisma.$queryRaw<{ previous_tick_size: number | null }[]>`
      WITH previous AS (SELECT tick_size FROM markets WHERE condition_id = ${conditionId}),
      position AS (
        INSERT INTO feed_positions (feed, stream_created, seq) VALUES (${CATALOG_FEED}, ${position.streamCreated}, ${position.seq})
        ON CONFLICT (feed) DO UPDATE SET stream_created = EXCLUDED.stream_created, seq = EXCLUDED.seq
      )
      INSERT INTO markets (condition_id, market_id, token_ids, tick_size, snapshot, catalog_updated_at, updated_at)
      VALUES (${conditionId}, ${snapshot.id}, ${snapshot.tokenIds}::text[], ${snapshot.tickSizeUnits}, ${json}::jsonb,
              ${new Date(snapshot.updatedAt)}, now())
      ON CONFLICT (condition_id) DO UPDATE SET
        market_id = EXCLUDED.market_id, token_ids = EXCLUDED.token_ids, tick_size = EXCLUDED.tick_size,
        snapshot = EXCLUDED.snapshot, catalog_updated_at = EXCLUDED.catalog_updated_at, updated_at = now()
      WHERE markets.catalog_updated_at <= EXCLUDED.catalog_updated_at
      RETURNING (SELECT tick_size FROM previous) AS previous_tick_size`;
    if (rows.length === 0) return null;
    return { previousTickSize: rows[0]!.previous_tick_size };
  }

  async setRewards(conditionId: string, rewards: Rewards): Promise<boolean> {
    const updated = await this.prisma.market.updateMany({
      where: { conditionId: conditionId.toLowerCase() },
      data: { rewards: rewards as unknown as object },
    });
    return updated.count > 0;
  }
}
