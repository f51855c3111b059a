import { Injectable } from '@nestjs/common';
import { inTransaction } from '@exchange/service-kit';
import { PrismaService } from '../prisma/prisma.service';

export interface PriceRow {
  tradeId: string;
  conditionId: string;
  timeMs: number;
  /** YES price, base units. */
  price: number;
  /** Position of the trade event in the MATCHING stream (`eventPosition`); 0 for refilled rows. */
  streamSeq: number;
  /** The taker's collateral, base units (what the trade adds to its market's volume). */
  notional: bigint;
}

/** The rows as arrays, in the column order of the statements below. */
const ROWS = `unnest($1::text[], $2::text[], $3::bigint[], $4::int[], $5::bigint[], $6::bigint[])
  AS v(trade_id, condition_id, time_ms, price, stream_seq, notional)`;

/** Adds what a statement's `counted` rows bring to their markets' volumes. */
const ADD_TO_VOLUMES = `
  INSERT INTO market_volume (condition_id, volume)
  SELECT condition_id, sum(notional) FROM counted WHERE notional IS NOT NULL GROUP BY condition_id
  ON CONFLICT (condition_id) DO UPDATE SET volume = market_volume.volume + EXCLUDED.volume`;

/**
 * A row new to the table counts toward its market's volume (xmax = 0 tells an inserted row from an
 * updated one); a later slice of a trade, or a redelivered event, updates or skips it and counts nothing.
 */
const INSERT_PRICES = `
  WITH written AS (
    INSERT INTO price_history (trade_id, condition_id, time_ms, price, stream_seq, notional)
    SELECT * FROM ${ROWS}
    ON CONFLICT (trade_id) DO UPDATE SET price = EXCLUDED.price, stream_seq = EXCLUDED.stream_seq
    WHERE price_history.stream_seq < EXCLUDED.stream_seq
    RETURNING condition_id, notional, xmax = 0 AS inserted
  ), counted AS (SELECT condition_id, notional FROM written WHERE inserted)
  ${ADD_TO_VOLUMES}`;

/** Rows written before volumes were kept get their notional, and count then (the refill, in one transaction with INSERT_PRICES). */
const FILL_NOTIONALS = `
  WITH counted AS (
    UPDATE price_history p SET notional = v.notional FROM ${ROWS}
    WHERE p.trade_id = v.trade_id AND p.notional IS NULL
    RETURNING p.condition_id, p.notional
  )
  ${ADD_TO_VOLUMES}`;

/** The price_history table: one row per trade, in the YES token's terms; and each market's volume. */
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
    await this.prisma.pool.query({ name: 'price-history-insert', text: INSERT_PRICES, values: columns(latestPerTrade(given)) });
  }

  /** Rows from order-matching's trades (the refill): new ones are inserted, those without a notional get it. */
  async refill(given: PriceRow[]): Promise<void> {
    if (given.length === 0) return;
    const values = columns(latestPerTrade(given));
    await inTransaction(this.prisma.pool, async (client) => {
      await client.query(FILL_NOTIONALS, values);
      await client.query(INSERT_PRICES, values);
    });
  }

  /** Each market's volume, base units (markets without a trade are absent). */
  async volumes(conditionIds: string[]): Promise<Map<string, bigint>> {
    const { rows } = await this.prisma.pool.query<{ condition_id: string; volume: string }>(
      'SELECT condition_id, volume FROM market_volume WHERE condition_id = ANY($1::text[])',
      [conditionIds],
    );
    return new Map(rows.map((row) => [row.condition_id, BigInt(row.volume)]));
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

/** The statement may not update a row twice: slices of one trade in the same flush become one row. */
function latestPerTrade(given: PriceRow[]): PriceRow[] {
  const latest = new Map<string, PriceRow>();
  for (const row of given) if ((latest.get(row.tradeId)?.streamSeq ?? -1) < row.streamSeq) latest.set(row.tradeId, row);
  return latest.size === given.length ? given : [...latest.values()];
}

function columns(rows: PriceRow[]): unknown[] {
  return [
    rows.map((r) => r.tradeId),
    rows.map((r) => r.conditionId.toLowerCase()),
    rows.map((r) => r.timeMs),
    rows.map((r) => r.price),
    rows.map((r) => r.streamSeq),
    rows.map((r) => r.notional.toString()),
  ];
}
