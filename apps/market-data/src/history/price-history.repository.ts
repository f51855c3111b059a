import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

export interface PriceRow {
  tradeId: string;
  conditionId: string;
  timeMs: number;
  /** YES price, base units. */
  price: number;
  /** Position of the trade event in the MATCHING stream (`eventPosition`). */
  streamSeq: number;
}

const INSERT_PRICES = `
  INSERT INTO price_history (trade_id, condition_id, time_ms, price, stream_seq)
  SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::int[], $5::bigint[])
  ON CONFLICT (trade_id) DO UPDATE SET price = EXCLUDED.price, stream_seq = EXCLUDED.stream_seq
  WHERE price_history.stream_seq < EXCLUDED.stream_seq`;

/** The price_history table: one row per trade, in the YES token's terms. */
@Injectable()
export class PriceHistoryRepository {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * One row per trade id, at the price of its latest event: a trade of more than 500 makers comes as
   * several events (slices) with the same id, and only the last slice's last fill is the trade's price
   * (the first slice used to win). A redelivered event, not later than the row's, changes nothing.
   * One prepared statement over arrays, on the pg pool under Prisma (PrismaService): `createMany` ran
   * in a transaction of its own, three round trips per batch of trades, and `$executeRaw` went through
   * Prisma's query path.
   */
  async insert(given: PriceRow[]): Promise<void> {
    if (given.length === 0) return;
    // The statement may not update a row twice: slices of one trade in the same flush become one row.
    const latest = new Map<string, PriceRow>();
    for (const row of given) if ((latest.get(row.tradeId)?.streamSeq ?? -1) < row.streamSeq) latest.set(row.tradeId, row);
    const rows = latest.size === given.length ? given : [...latest.values()];
    await this.prisma.pool.query({
      name: 'price-history-insert',
      text: INSERT_PRICES,
      values: [
        rows.map((r) => r.tradeId),
        rows.map((r) => r.conditionId.toLowerCase()),
        rows.map((r) => r.timeMs),
        rows.map((r) => r.price),
        rows.map((r) => r.streamSeq),
      ],
    });
  }

  /** Time (ms) of the market's first trade. */
  async firstTradeMs(conditionId: string): Promise<number | undefined> {
    const first = await this.prisma.priceHistory.findFirst({ where: { conditionId }, orderBy: { timeMs: 'asc' }, select: { timeMs: true } });
    return first ? Number(first.timeMs) : undefined;
  }

  /** The price of the last trade before `beforeMs`. */
  async lastPriceBefore(conditionId: string, beforeMs: number): Promise<number | undefined> {
    const row = await this.prisma.priceHistory.findFirst({
      where: { conditionId, timeMs: { lt: BigInt(beforeMs) } },
      // Trade ids order the trades of a millisecond that the backfill wrote without a stream position
      // (UUIDs v7 that count up within a millisecond; until the fifteenth session such a tie gave either price).
      orderBy: [{ timeMs: 'desc' }, { streamSeq: 'desc' }, { tradeId: 'desc' }],
      select: { price: true },
    });
    return row?.price;
  }

  /**
   * The last price of each bucket of trades in [fromMs, toMs): bucket k holds the trades of the k-th
   * `stepMs` after `fromMs`.
   */
  async lastPricePerBucket(conditionId: string, fromMs: number, toMs: number, stepMs: number): Promise<Map<number, number>> {
    const rows = await this.prisma.$queryRaw<{ bucket: bigint; price: number }[]>`
      SELECT DISTINCT ON (bucket) (time_ms - ${fromMs}::bigint) / ${stepMs}::bigint AS bucket, price
      FROM price_history
      WHERE condition_id = ${conditionId} AND time_ms >= ${fromMs}::bigint AND time_ms < ${toMs}::bigint
      ORDER BY bucket, time_ms DESC, stream_seq DESC, trade_id DESC`;
    return new Map(rows.map((r) => [Number(r.bucket), r.price]));
  }
}
