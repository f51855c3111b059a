import type { Pool } from 'pg';
import type { EngineState } from '../engine/engine-state';
import type { MoneyMoveKind } from '../engine/effects';
import type { OrderState } from '../engine/model';
import type { EndedOrderIds } from '../engine/ended-order-ids';
import { bookSide, flipFor } from '../engine/book-terms';
import { marketFromRow, type MarketRow } from '../markets/market-record';

/**
 * Rebuilds the engine from the database: markets, balances, totals, money references, and every resting order put back
 * on its book in arrival order (seq), which reproduces the books exactly. Returns whether the exchange
 * had run before (a restart), which turns on post-only mode for a while.
 */
export async function loadState(pool: Pool, state: EngineState): Promise<{ restarted: boolean; openOrders: number }> {
  const markets = await pool.query<MarketRow & { book_time: string }>('SELECT * FROM markets');
  for (const row of markets.rows) {
    state.addMarket(marketFromRow(row));
    state.bookSeq.set(row.condition_id, Number(row.book_seq));
    if (row.book_time !== '0') state.bookTime.set(row.condition_id, Number(row.book_time));
  }

  const balances = await pool.query<{ address: string; asset: string; available: string; reserved: string }>('SELECT * FROM balances');
  for (const row of balances.rows) {
    state.ledger.load({ address: row.address, asset: row.asset, available: Number(row.available), reserved: Number(row.reserved) });
  }

  const totals = await pool.query<{ kind: string; amount: string }>(
    "SELECT kind, COALESCE(SUM(amount), 0)::text AS amount FROM money_moves WHERE kind IN ('deposit', 'withdrawal') GROUP BY kind",
  );
  for (const row of totals.rows) {
    if (row.kind === 'deposit') state.totals.deposits = Number(row.amount);
    else state.totals.withdrawals = Number(row.amount);
  }

  const referenced = await pool.query<{ kind: MoneyMoveKind; reference: string; address: string; condition_id: string; amount: string }>(
    'SELECT kind, reference, address, condition_id, amount::text FROM money_moves WHERE reference IS NOT NULL',
  );
  for (const row of referenced.rows) {
    state.moneyReferences.add(row.kind, row.reference, { address: row.address, conditionId: row.condition_id, amount: Number(row.amount) });
  }

  const wallets = await pool.query<{ wallet: string; owner: string }>('SELECT wallet, owner FROM deposit_wallets');
  for (const row of wallets.rows) state.wallets.bind(row.wallet, row.owner);

  const last = await pool.query<{ seq: string | null }>('SELECT MAX(seq)::text AS seq FROM orders');
  state.nextSeq = Number(last.rows[0]?.seq ?? 0) + 1;
  // Seqs count every order ever accepted, so the highest is room enough for the ended ones.
  await loadPastIds(pool, state.pastIds, state.nextSeq - 1);

  // The status as a literal: the planner then uses the partial index of resting orders.
  const open = await pool.query("SELECT * FROM orders WHERE status = 'LIVE' ORDER BY seq");
  for (const row of open.rows) {
    const order: OrderState = {
      id: row.id,
      seq: Number(row.seq),
      owner: row.owner,
      maker: row.maker,
      signer: row.signer,
      conditionId: row.condition_id,
      tokenId: row.token_id,
      outcome: row.outcome,
      side: row.side,
      price: row.price,
      size: Number(row.size),
      matched: Number(row.matched),
      status: row.status,
      orderType: row.order_type,
      postOnly: row.post_only,
      expiration: Number(row.expiration),
      createdAt: Number(row.created_at),
      reservedAsset: row.reserved_asset,
      reserved: Number(row.reserved),
      tradeIds: row.trade_ids,
      journaled: true,
    };
    state.addOrder(order);
    const market = state.markets.get(order.conditionId)!;
    market.book.place(
      {
        id: order.seq,
        side: bookSide(order.side, order.outcome),
        price: flipFor(order.outcome, order.price),
        size: order.size - order.matched,
        tif: 'GTC',
        postOnly: false,
      },
      [],
    );
  }
  const batches = await pool.query('SELECT 1 FROM batches LIMIT 1');
  return { restarted: (batches.rowCount ?? 0) > 0, openOrders: open.rowCount ?? 0 };
}

const PAST_IDS_PAGE = 50_000;

/**
 * One page of ended orders along the primary key, as one text of `<id> <seq>` pairs joined by spaces
 * (ids are `0x` and hex digits): as rows, node-pg made an object and two strings per order, most of a
 * start's time with millions of them.
 */
const PAST_IDS_PAGE_SQL = `
SELECT string_agg(id || ' ' || seq, ' ') AS pairs, max(seq)::text AS last, count(*)::int AS count
FROM (SELECT id, seq FROM orders WHERE status <> 'LIVE' AND seq > $1 ORDER BY seq LIMIT $2) page`;

interface PastIdsPage {
  pairs: string | null;
  last: string | null;
  count: number;
}

/**
 * The ids and seqs of ended orders, a page at a time (all at once, millions of rows would be held at
 * once), the next page read while this one is added. `expected` (at least the number of ended orders,
 * e.g. the highest seq) sizes the table once.
 */
export async function loadPastIds(pool: Pool, ids: EndedOrderIds, expected: number, pageSize = PAST_IDS_PAGE): Promise<void> {
  ids.reserve(expected);
  const read = async (after: number) => (await pool.query<PastIdsPage>(PAST_IDS_PAGE_SQL, [after, pageSize])).rows[0]!;
  for (let page = await read(0); ; ) {
    const next = page.count === pageSize ? read(Number(page.last)) : null;
    // Awaited below; until then a failure must not count as an unhandled rejection (adding yields).
    next?.catch(() => undefined);
    if (page.pairs) await addPairs(ids, page.pairs);
    if (!next) return;
    page = await next;
  }
}

/** Pairs added between two turns of the event loop, in which the next page's bytes are read off the socket. */
const PAIRS_PER_TURN = 5_000;

async function addPairs(ids: EndedOrderIds, pairs: string): Promise<void> {
  for (let at = 0, added = 0; at < pairs.length; added++) {
    // Without these pauses PostgreSQL stalled on a full socket while a page was added, and reading and
    // adding took turns instead of overlapping.
    if (added % PAIRS_PER_TURN === PAIRS_PER_TURN - 1) await new Promise((resolve) => setImmediate(resolve));
    const space = pairs.indexOf(' ', at);
    const next = pairs.indexOf(' ', space + 1);
    const end = next === -1 ? pairs.length : next;
    ids.add(pairs.slice(at, space), Number(pairs.slice(space + 1, end)));
    at = end + 1;
  }
}
