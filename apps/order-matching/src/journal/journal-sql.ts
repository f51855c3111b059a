import type { OutboxRecord } from '@exchange/service-kit';
import type { Queryable } from './journal-session';
import type { Effects, MoneyMove } from '../engine/effects';
import type { BalanceRow } from '../engine/ledger';
import type { OrderState, TradeRecord } from '../engine/model';
import { outboxMessages, type OutboxMessages } from './event-messages';

/**
 * One batch is ONE statement: data-modifying CTEs insert the batch, orders, trades, balances, money
 * moves and outbox rows, each table from arrays (UNNEST), and update the markets and the orders an
 * earlier batch wrote (`journaled`). New orders are plain inserts: as `INSERT ... ON CONFLICT DO UPDATE`
 * each paid a speculative insertion (an index probe first, a confirmation record in the WAL after).
 * A single statement is atomic by itself, so a batch costs one round trip and one commit whatever its
 * size; its text never changes, so it is a named prepared statement, planned once per connection on the
 * journal's connection (journal-session.ts). Empty arrays insert nothing.
 * The outbox payload is stored as text compressed with lz4: it is the published message exactly, read
 * back only after a crash and deleted within a second (as jsonb it was parsed and compressed with pglz,
 * a quarter of the statement's time; uncompressed, it was most of the journal's WAL after the orders).
 */
const WRITE_BATCH = `
WITH
  b AS (INSERT INTO batches (id, commands) VALUES ($1, $2)),
  o AS (
    INSERT INTO orders (id, seq, owner, maker, signer, condition_id, token_id, outcome, side, price, size, matched, status,
      order_type, post_only, expiration, created_at, reserved_asset, reserved, trade_ids)
    SELECT * FROM UNNEST($3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[], $10::int[],
      $11::text[], $12::int[], $13::bigint[], $14::bigint[], $15::text[], $16::text[], $17::bool[], $18::bigint[], $19::bigint[],
      $20::text[], $21::bigint[], $22::jsonb[])),
  ou AS (
    UPDATE orders SET matched = u.matched, status = u.status, reserved = u.reserved, trade_ids = u.trade_ids, updated_at = now()
    FROM UNNEST($67::bigint[], $68::bigint[], $69::text[], $70::bigint[], $71::jsonb[]) AS u(seq, matched, status, reserved, trade_ids)
    WHERE orders.seq = u.seq),
  t AS (
    INSERT INTO trades (id, batch_id, condition_id, taker_order_id, taker, taker_owner, token_id, outcome, side, shares,
      collateral, fee, fee_rate_bps, match_time, maker_fee_rate_bps)
    SELECT u.id, $1, u.c, u.tko, u.tk, u.tow, u.tok, u.oc, u.sd, u.sh, u.co, u.fe, u.fr, u.mt, u.mfr
    FROM UNNEST($23::text[], $24::text[], $25::text[], $26::text[], $27::text[], $28::text[], $29::int[], $30::text[],
      $31::bigint[], $32::bigint[], $33::bigint[], $34::int[], $35::bigint[], $72::int[])
      AS u(id, c, tko, tk, tow, tok, oc, sd, sh, co, fe, fr, mt, mfr)),
  tm AS (
    INSERT INTO trade_makers (trade_id, order_id, position, maker, owner, token_id, outcome, side, shares, price, fee, rebate,
      match_time, condition_id)
    SELECT * FROM UNNEST($36::text[], $37::text[], $38::int[], $39::text[], $40::text[], $41::text[], $42::int[], $43::text[],
      $44::bigint[], $45::int[], $46::bigint[], $47::bigint[], $48::bigint[], $49::text[])),
  bal AS (
    INSERT INTO balances (address, asset, available, reserved)
    SELECT * FROM UNNEST($50::text[], $51::text[], $52::bigint[], $53::bigint[])
    ON CONFLICT (address, asset) DO UPDATE SET available = EXCLUDED.available, reserved = EXCLUDED.reserved),
  mm AS (
    INSERT INTO money_moves (batch_id, kind, address, condition_id, amount, payout, reference)
    SELECT $1, * FROM UNNEST($54::text[], $55::text[], $56::text[], $57::bigint[], $58::bigint[], $59::text[])),
  ob AS (
    INSERT INTO outbox (subject, payload)
    SELECT ($60::text[])[m.n], m.p FROM string_to_table($61::text, chr(30)) WITH ORDINALITY AS m(p, n) ORDER BY m.n
    RETURNING id),
  mk AS (
    UPDATE markets m SET
      book_seq = COALESCE(u.book_seq, m.book_seq),
      book_time = COALESCE(u.book_time, m.book_time),
      winning_outcome = COALESCE(u.winner, m.winning_outcome),
      accepting_orders = COALESCE(u.accepting, m.accepting_orders),
      updated_at = now()
    FROM UNNEST($62::text[], $63::bigint[], $64::bigint[], $65::int[], $66::bool[]) AS u(condition_id, book_seq, book_time, winner, accepting)
    WHERE m.condition_id = u.condition_id)
SELECT COALESCE(array_agg(id ORDER BY id), '{}')::text[] AS outbox_ids FROM ob`;

/**
 * Between two outbox messages in WRITE_BATCH's $61: chr(30), the record separator, never raw in JSON text.
 * $60 holds each message's subject, by position: a text[] of a few short strings without quotes, which
 * node-pg and PostgreSQL's array parser handle cheaply (unlike the messages themselves).
 */
const MESSAGE_SEPARATOR = '\x1e';

type Pick<T> = (row: T) => unknown;
/** A maker's fill, with its trade's time and market: the caller's trades are listed by maker, newest first (queries.service.ts). */
type MakerRow = TradeRecord['makers'][number] & { tradeId: string; position: number; matchTime: number; conditionId: string };

// The columns of each table, in the order of WRITE_BATCH's parameters. Kept as tables of picks rather
// than one `rows.map(...)` per column inline: TurboFan inlined all 56 closures into one function and
// took 340-570 ms of CPU to compile it, again after each deoptimization (a first resolution, say).
const ORDER_COLUMNS: Pick<OrderState>[] = [
  (o) => o.id, (o) => o.seq, (o) => o.owner, (o) => o.maker, (o) => o.signer, (o) => o.conditionId, (o) => o.tokenId,
  (o) => o.outcome, (o) => o.side, (o) => o.price, (o) => o.size, (o) => o.matched, (o) => o.status, (o) => o.orderType,
  (o) => o.postOnly, (o) => o.expiration, (o) => o.createdAt, (o) => o.reservedAsset, (o) => o.reserved,
  (o) => JSON.stringify(o.tradeIds),
];
const TRADE_COLUMNS: Pick<TradeRecord>[] = [
  (t) => t.id, (t) => t.conditionId, (t) => t.takerOrderId, (t) => t.taker, (t) => t.takerOwner, (t) => t.tokenId,
  (t) => t.outcome, (t) => t.side, (t) => t.shares, (t) => t.collateral, (t) => t.fee, (t) => t.feeRateBps, (t) => t.matchTime,
];
const MAKER_COLUMNS: Pick<MakerRow>[] = [
  (m) => m.tradeId, (m) => m.orderId, (m) => m.position, (m) => m.maker, (m) => m.owner, (m) => m.tokenId, (m) => m.outcome,
  (m) => m.side, (m) => m.shares, (m) => m.price, (m) => m.fee, (m) => m.rebate, (m) => m.matchTime,
  (m) => m.conditionId,
];
/** An order an earlier batch wrote, by its key: only what can change after placement. */
const ORDER_UPDATE_COLUMNS: Pick<OrderState>[] = [(o) => o.seq, (o) => o.matched, (o) => o.status, (o) => o.reserved, (o) => JSON.stringify(o.tradeIds)];
const BALANCE_COLUMNS: Pick<BalanceRow>[] = [(b) => b.address, (b) => b.asset, (b) => b.available, (b) => b.reserved];
const MOVE_COLUMNS: Pick<MoneyMove>[] = [
  (m) => m.kind, (m) => m.address, (m) => m.conditionId, (m) => m.amount, (m) => m.payout, (m) => m.reference ?? null,
];

interface MarketChange {
  bookSeq: number | null;
  bookTime: number | null;
  winner: number | null;
  accepting: boolean | null;
}
const MARKET_COLUMNS: Pick<[string, MarketChange]>[] = [
  ([id]) => id, ([, m]) => m.bookSeq, ([, m]) => m.bookTime, ([, m]) => m.winner, ([, m]) => m.accepting,
];

/** One array per column: the UNNEST parameters of a table. */
function columns<T>(rows: T[], picks: Pick<T>[]): unknown[][] {
  return picks.map((pick) => rows.map(pick));
}

/** A batch's orders: the new ones, inserted, and those an earlier batch wrote (`journaled`), updated. */
function batchOrders(parts: Effects[]): { inserted: OrderState[]; updated: OrderState[] } {
  const orders = [...new Map(parts.flatMap((p) => [...p.orders])).values()];
  return { inserted: orders.filter((o) => !o.journaled), updated: orders.filter((o) => o.journaled) };
}

/** The parameters of WRITE_BATCH for a batch made of the effects of several commands, and its event messages. */
function batchParameters(
  batchId: string,
  commands: number,
  parts: Effects[],
): { values: unknown[]; messages: OutboxMessages; inserted: OrderState[]; updatedOrders: number } {
  const { inserted, updated } = batchOrders(parts);
  const trades = parts.flatMap((p) => p.trades);
  const makers: MakerRow[] = trades.flatMap((t) => t.makers.map((m, position) => ({ tradeId: t.id, position, matchTime: t.matchTime, conditionId: t.conditionId, ...m })));
  // The latest balance of each (address, asset): later parts overwrite earlier ones.
  const balances = [...new Map(parts.flatMap((p) => p.balances.map((b) => [`${b.address}|${b.asset}`, b] as const))).values()];
  const moves = parts.flatMap((p) => p.moves);
  const events = parts.flatMap((p) => p.events);

  const markets = new Map<string, MarketChange>();
  const market = (id: string) => markets.get(id) ?? markets.set(id, { bookSeq: null, bookTime: null, winner: null, accepting: null }).get(id)!;
  for (const event of events) {
    if (event.type === 'trade') event.data.batchId = batchId;
    if (event.type === 'book') Object.assign(market(event.data.conditionId), { bookSeq: event.data.bookSeq, bookTime: event.data.timestamp });
  }
  const messages = outboxMessages(batchId, events);
  for (const resolved of new Set(parts.flatMap((p) => [...p.markets]))) {
    Object.assign(market(resolved.conditionId), { winner: resolved.winningOutcome, accepting: resolved.acceptingOrders });
  }
  const values = [
    batchId,
    commands,
    ...columns(inserted, ORDER_COLUMNS),
    ...columns(trades, TRADE_COLUMNS),
    ...columns(makers, MAKER_COLUMNS),
    ...columns(balances, BALANCE_COLUMNS),
    ...columns(moves, MOVE_COLUMNS),
    messages.subjects,
    // The messages' texts in one text, split on a separator JSON never holds raw (JSON.stringify escapes
    // every control character). As a text[], node-pg escaped each quote with a regular expression and
    // PostgreSQL's array parser removed the escapes; as a JSON array, JSON.stringify escaped them and
    // PostgreSQL lexed the whole array and unescaped each message a character at a time.
    messages.texts.join(MESSAGE_SEPARATOR),
    ...columns([...markets.entries()], MARKET_COLUMNS),
    ...columns(updated, ORDER_UPDATE_COLUMNS),
    // The trades' maker rates, last: added after the other parameters were numbered.
    trades.map((t) => t.makerFeeRateBps),
  ];
  return { values, messages, inserted, updatedOrders: updated.length };
}

/**
 * What a written batch left: its outbox rows (undefined when the statement's answer was lost: the relay
 * reads them back), and how many order rows it updated (each a dead row version).
 */
export interface WrittenBatch {
  outbox?: OutboxRecord[];
  updatedOrders: number;
}

/** Writes a batch; answers its outbox rows (ids with the subjects and messages, in order) for the relay's fast path. */
export async function writeBatch(pool: Queryable, batchId: string, commands: number, parts: Effects[]): Promise<Required<WrittenBatch>> {
  const { values, messages, inserted, updatedOrders } = batchParameters(batchId, commands, parts);
  const result = await pool.query<{ outbox_ids: string[] }>({ name: 'write-batch', text: WRITE_BATCH, values });
  for (const order of inserted) order.journaled = true;
  const outbox = result.rows[0]!.outbox_ids.map((id, i) => ({ id: BigInt(id), subject: messages.subjects[i]!, json: messages.texts[i]! }));
  return { outbox, updatedOrders };
}

/** A batch found committed after its statement's answer was lost: the same, without the outbox rows' ids. */
export function writtenUnanswered(parts: Effects[]): WrittenBatch {
  const { inserted, updated } = batchOrders(parts);
  for (const order of inserted) order.journaled = true;
  return { updatedOrders: updated.length };
}

/** Whether a batch committed: asked once its statement's outcome is known to be final (group-commit.ts). */
export async function batchCommitted(pool: Queryable, batchId: string): Promise<boolean> {
  const found = await pool.query({ text: 'SELECT 1 FROM batches WHERE id = $1', values: [batchId] });
  return found.rowCount === 1;
}
