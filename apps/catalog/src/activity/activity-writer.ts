import { Injectable } from '@nestjs/common';
import type { MarketActivity } from '@exchange/contracts';
import { PrismaService } from '../prisma/prisma.service';

/** Any number: replicas syncing at the same time take turns on it instead of updating the same rows. */
const SYNC_LOCK = 0x616374;

/**
 * Stores a page of market-data's measures: the markets whose volume or liquidity changed, then each
 * of their events' sums, in one transaction. `updatedAt` stays: it says when the operator or an import
 * last changed a row, and volume changes all the time.
 */
@Injectable()
export class ActivityWriter {
  constructor(private readonly prisma: PrismaService) {}

  /** Skipped while another replica holds the lock: it is writing values as new as these. */
  async write(page: MarketActivity[]): Promise<void> {
    if (page.length === 0) return;
    return this.prisma.$transaction(async (tx) => {
      const [{ locked }] = await tx.$queryRaw<[{ locked: boolean }]>`SELECT pg_try_advisory_xact_lock(${SYNC_LOCK}) AS locked`;
      if (!locked) return;
      const events = await tx.$queryRaw<{ event_id: number }[]>`
        UPDATE markets m SET volume = v.volume, liquidity = v.liquidity
        FROM unnest(${page.map((m) => m.id)}::int[], ${page.map((m) => m.volume)}::bigint[], ${page.map((m) => m.liquidity)}::bigint[])
          AS v(id, volume, liquidity)
        WHERE m.id = v.id AND (m.volume <> v.volume OR m.liquidity <> v.liquidity)
        RETURNING m.event_id`;
      if (events.length === 0) return;
      // A second statement: the first one's changes are not visible inside it.
      await tx.$executeRaw`
        UPDATE events e SET volume = s.volume, liquidity = s.liquidity
        FROM (SELECT event_id, sum(volume) AS volume, sum(liquidity) AS liquidity FROM markets
              WHERE event_id = ANY(${[...new Set(events.map((e) => e.event_id))]}::int[]) GROUP BY event_id) s
        WHERE e.id = s.event_id`;
    });
  }
}
