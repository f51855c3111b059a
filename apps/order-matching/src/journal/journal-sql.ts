import type { PoolClient } from 'pg';
import type { Effects } from '../engine/effects';
import type { TradeEvent } from '@exchange/contracts';
import { MATCHING_SUBJECTS } from '@exchange/contracts';

/**
 * Writes one batch of effects in the caller's transaction, each table with one multi-row statement
 * (UNNEST of arrays), so that a batch costs the same few round trips whatever its size.
 */
export async function writeBatch(client: PoolClient, batchId: string, commands: number, parts: Effects[]): Promise<void> {
  await client.query('INSERT INTO batches (id, commands) VALUES ($1, $2)', [batchId, commands]);

  const orders = new Map(parts.flatMap((p) => [...p.orders]));
  if (orders.size) {
    const rows = [...orders.values()];
    await client.query(
      `INSERT INTO orders (id, seq, owner, maker, signer, condition_id, token_id, outcome, side, price, size, matched, status,
         order_type, post_only, expiration, created_at, reserved_asset, reserved, trade_ids)
       SELECT * FROM UNNEST($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[],
         $9::text[], $10::int[], $11::bigint[], $12::bigint[], $13::text[], $14::text[], $15::bool[], $16::bigint[], $17::bigint[],
         $18::text[], $19::bigint[], $20::jsonb[])
       ON CONFLICT (id) DO UPDATE SET matched = EXCLUDED.matched, status = EXCLUDED.status, reserved = EXCLUDED.reserved,
         trade_ids = EXCLUDED.trade_ids, updated_at = now()`,
      [
        rows.map((o) => o.id),
        rows.map((o) => o.seq),
        rows.map((o) => o.owner),
        rows.map((o) => o.maker),
        rows.map((o) => o.signer),
        rows.map((o) => o.conditionId),
        rows.map((o) => o.tokenId),
        rows.map((o) => o.outcome),
        rows.map((o) => o.side),
        rows.map((o) => o.price),
        rows.map((o) => o.size),
        rows.map((o) => o.matched),
        rows.map((o) => o.status),
        rows.map((o) => o.orderType),
        rows.map((o) => o.postOnly),
        rows.map((o) => o.expiration),
        rows.map((o) => o.createdAt),
        rows.map((o) => o.reservedAsset),
        rows.map((o) => o.reserved),
        rows.map((o) => JSON.stringify(o.tradeIds)),
      ],
    );
  }

  const trades = parts.flatMap((p) => p.trades);
  if (trades.length) {
    await client.query(
      `INSERT INTO trades (id, batch_id, condition_id, taker_order_id, taker, taker_owner, token_id, outcome, side, shares,
         collateral, fee, fee_rate_bps, match_time)
       SELECT * FROM UNNEST($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::int[],
         $9::text[], $10::bigint[], $11::bigint[], $12::bigint[], $13::int[], $14::bigint[])`,
      [
        trades.map((t) => t.id),
        trades.map(() => batchId),
        trades.map((t) => t.conditionId),
        trades.map((t) => t.takerOrderId),
        trades.map((t) => t.taker),
        trades.map((t) => t.takerOwner),
        trades.map((t) => t.tokenId),
        trades.map((t) => t.outcome),
        trades.map((t) => t.side),
        trades.map((t) => t.shares),
        trades.map((t) => t.collateral),
        trades.map((t) => t.fee),
        trades.map((t) => t.feeRateBps),
        trades.map((t) => t.matchTime),
      ],
    );
    const makers = trades.flatMap((t) => t.makers.map((m, position) => ({ tradeId: t.id, position, ...m })));
    await client.query(
      `INSERT INTO trade_makers (trade_id, order_id, position, maker, owner, token_id, outcome, side, shares, price, fee, rebate)
       SELECT * FROM UNNEST($1::text[], $2::text[], $12::int[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[],
         $8::bigint[], $9::int[], $10::bigint[], $11::bigint[])`,
      [
        makers.map((m) => m.tradeId),
        makers.map((m) => m.orderId),
        makers.map((m) => m.maker),
        makers.map((m) => m.owner),
        makers.map((m) => m.tokenId),
        makers.map((m) => m.outcome),
        makers.map((m) => m.side),
        makers.map((m) => m.shares),
        makers.map((m) => m.price),
        makers.map((m) => m.fee),
        makers.map((m) => m.rebate),
        makers.map((m) => m.position),
      ],
    );
  }

  // The latest balance of each (address, asset): later parts overwrite earlier ones.
  const balances = new Map(parts.flatMap((p) => p.balances.map((b) => [`${b.address}|${b.asset}`, b] as const)));
  if (balances.size) {
    const rows = [...balances.values()];
    await client.query(
      `INSERT INTO balances (address, asset, available, reserved)
       SELECT * FROM UNNEST($1::text[], $2::text[], $3::bigint[], $4::bigint[])
       ON CONFLICT (address, asset) DO UPDATE SET available = EXCLUDED.available, reserved = EXCLUDED.reserved`,
      [rows.map((b) => b.address), rows.map((b) => b.asset), rows.map((b) => b.available), rows.map((b) => b.reserved)],
    );
  }

  const moves = parts.flatMap((p) => p.moves);
  if (moves.length) {
    await client.query(
      `INSERT INTO money_moves (batch_id, kind, address, condition_id, amount, payout)
       SELECT $1, * FROM UNNEST($2::text[], $3::text[], $4::text[], $5::bigint[], $6::bigint[])`,
      [batchId, moves.map((m) => m.kind), moves.map((m) => m.address), moves.map((m) => m.conditionId), moves.map((m) => m.amount), moves.map((m) => m.payout)],
    );
  }

  const markets = new Set(parts.flatMap((p) => [...p.markets]));
  for (const market of markets) {
    await client.query('UPDATE markets SET winning_outcome = $2, accepting_orders = $3, updated_at = now() WHERE condition_id = $1', [
      market.conditionId,
      market.winningOutcome,
      market.acceptingOrders,
    ]);
  }

  const events = parts.flatMap((p) => p.events);
  if (events.length) {
    const bookSeqs = new Map<string, number>();
    for (const event of events) {
      if (event.subject === MATCHING_SUBJECTS.trade) (event.payload as TradeEvent).batchId = batchId;
      if (event.subject === MATCHING_SUBJECTS.book) {
        const { conditionId, bookSeq } = event.payload as { conditionId: string; bookSeq: number };
        bookSeqs.set(conditionId, bookSeq);
      }
    }
    await client.query(
      'INSERT INTO outbox (subject, payload) SELECT * FROM UNNEST($1::text[], $2::jsonb[])',
      [events.map((e) => e.subject), events.map((e) => JSON.stringify(e.payload))],
    );
    if (bookSeqs.size) {
      await client.query(
        `UPDATE markets m SET book_seq = s.seq FROM UNNEST($1::text[], $2::bigint[]) AS s(condition_id, seq)
         WHERE m.condition_id = s.condition_id`,
        [[...bookSeqs.keys()], [...bookSeqs.values()]],
      );
    }
  }
}
