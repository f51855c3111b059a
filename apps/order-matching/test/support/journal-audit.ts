import type { Pool, PoolClient } from 'pg';
import { inTransaction } from '@exchange/service-kit';
import { until } from '@exchange/testing';
import type { EngineState } from '../../src/engine/engine-state';
import { COLLATERAL } from '../../src/engine/ledger';
import { audit } from '../../src/engine/money';

/**
 * Conservation of collateral and shares read from the tables the engine commits (balances, orders,
 * trades, trade_makers, money_moves, markets), and whether they agree with the engine's memory.
 *
 * Collateral only enters and leaves by deposits and withdrawals; inside the exchange it turns into
 * YES + NO pairs and back (money.ts, settlement.ts): a split or two BUYs of different tokens meeting
 * (a mint) turn `amount` collateral into `amount` pairs, a merge or two SELLs meeting the reverse, and a
 * redemption burns both tokens (`amount` = both together) for `payout` collateral (the winning ones).
 * Fees move collateral between accounts (to the fee account, rebates to makers), so from the journal:
 *
 *   Σ collateral balances = deposits − withdrawals − splits + merges + payouts − minted + trade-merged
 *   Σ balances of outcome i = splits − merges + minted − trade-merged − redeemed shares of outcome i
 *
 * per market (before resolution both outcomes equal; a redemption burns `payout` winning shares and
 * `amount − payout` losing ones). Besides: no balance below zero, each account's reserved balance is
 * what its resting orders reserve, an ended order reserves nothing, and the fee account holds exactly
 * the fees charged less the rebates (when it never traded itself).
 */
export interface JournalAudit {
  /** Broken invariants of the committed tables: any committed batch must leave none. */
  conservation: string[];
  /** Differences between the tables and the engine's memory (none once every change is committed). */
  disagreements: string[];
}

interface Journal {
  balances: Map<string, { available: bigint; reserved: bigint }>;
  totals: Map<string, bigint>;
  moves: Map<string, { amount: bigint; payout: bigint }>;
  markets: { conditionId: string; tokenIds: string[]; winningOutcome: number }[];
  /** Per market: shares that two BUYs of different tokens minted, and that two SELLs merged. */
  crossed: Map<string, { minted: bigint; merged: bigint }>;
  crossedWithSameSide: number;
  tradesNotSummingTheirFills: string[];
  fees: { taker: bigint; maker: bigint; rebates: bigint; feeAccountOrders: number };
  reservations: { address: string; asset: string; balance: bigint; orders: bigint }[];
  endedHoldingReserve: string[];
  badOrders: string[];
  live: Map<string, string>;
}

const sum = (values: Iterable<bigint>) => [...values].reduce((a, b) => a + b, 0n);

async function read(client: PoolClient, feeAccount: string): Promise<Journal> {
  const q = async <R extends object>(text: string, values: unknown[] = []) => (await client.query<R>(text, values)).rows;
  const balances = new Map<string, { available: bigint; reserved: bigint }>();
  const totals = new Map<string, bigint>();
  for (const row of await q<{ address: string; asset: string; available: string; reserved: string }>(
    'SELECT address, asset, available::text, reserved::text FROM balances',
  )) {
    const balance = { available: BigInt(row.available), reserved: BigInt(row.reserved) };
    balances.set(`${row.address}|${row.asset}`, balance);
    totals.set(row.asset, (totals.get(row.asset) ?? 0n) + balance.available + balance.reserved);
  }
  const moves = new Map<string, { amount: bigint; payout: bigint }>();
  for (const row of await q<{ kind: string; condition_id: string; fee_account: boolean; amount: string; payout: string }>(
    `SELECT kind, condition_id, address = $1 AS fee_account, SUM(amount)::text AS amount, SUM(payout)::text AS payout
     FROM money_moves GROUP BY 1, 2, 3`,
    [feeAccount],
  )) {
    for (const key of [`${row.kind}|${row.condition_id}`, ...(row.fee_account ? [`fee-account|${row.kind}`] : [])]) {
      const total = moves.get(key) ?? { amount: 0n, payout: 0n };
      moves.set(key, { amount: total.amount + BigInt(row.amount), payout: total.payout + BigInt(row.payout) });
    }
  }
  const markets = (await q<{ condition_id: string; token_ids: string[]; winning_outcome: number }>('SELECT condition_id, token_ids, winning_outcome FROM markets')).map(
    (row) => ({ conditionId: row.condition_id, tokenIds: row.token_ids, winningOutcome: row.winning_outcome }),
  );
  // A maker fill of the other token than its taker's: both BUY (a mint) or both SELL (a merge).
  const crossed = new Map<string, { minted: bigint; merged: bigint }>();
  let crossedWithSameSide = 0;
  for (const row of await q<{ condition_id: string; side: string; maker_side: string; shares: string; fills: number }>(
    `SELECT t.condition_id, t.side, m.side AS maker_side, SUM(m.shares)::text AS shares, count(*)::int AS fills
     FROM trade_makers m JOIN trades t ON t.id = m.trade_id WHERE m.token_id <> t.token_id GROUP BY 1, 2, 3`,
  )) {
    if (row.side !== row.maker_side) crossedWithSameSide += row.fills;
    const total = crossed.get(row.condition_id) ?? { minted: 0n, merged: 0n };
    if (row.side === 'BUY') total.minted += BigInt(row.shares);
    else total.merged += BigInt(row.shares);
    crossed.set(row.condition_id, total);
  }
  const tradesNotSummingTheirFills = (
    await q<{ id: string }>(
      `SELECT t.id FROM trades t LEFT JOIN (SELECT trade_id, SUM(shares) AS shares FROM trade_makers GROUP BY 1) m ON m.trade_id = t.id
       WHERE t.shares <> COALESCE(m.shares, 0)`,
    )
  ).map((row) => row.id);
  const [fees] = await q<{ taker: string; maker: string; rebates: string; fee_account_orders: number }>(
    `SELECT (SELECT COALESCE(SUM(fee), 0) FROM trades)::text AS taker,
            (SELECT COALESCE(SUM(fee), 0) FROM trade_makers)::text AS maker,
            (SELECT COALESCE(SUM(rebate), 0) FROM trade_makers)::text AS rebates,
            (SELECT count(*) FROM orders WHERE maker = $1)::int AS fee_account_orders`,
    [feeAccount],
  );
  // Every (account, asset) that holds a reservation or has resting orders.
  const reservations = (
    await q<{ address: string; asset: string; balance: string; orders: string }>(
      `SELECT COALESCE(b.address, o.maker) AS address, COALESCE(b.asset, o.reserved_asset) AS asset,
              COALESCE(b.reserved, 0)::text AS balance, COALESCE(o.reserved, 0)::text AS orders
       FROM (SELECT address, asset, reserved FROM balances WHERE reserved <> 0) b
       FULL JOIN (SELECT maker, reserved_asset, SUM(reserved) AS reserved FROM orders WHERE status = 'LIVE' GROUP BY 1, 2) o
         ON o.maker = b.address AND o.reserved_asset = b.asset`,
    )
  ).map((row) => ({ address: row.address, asset: row.asset, balance: BigInt(row.balance), orders: BigInt(row.orders) }));
  const endedHoldingReserve = (await q<{ id: string }>("SELECT id FROM orders WHERE status <> 'LIVE' AND reserved <> 0")).map((row) => row.id);
  const badOrders = (await q<{ id: string }>('SELECT id FROM orders WHERE reserved < 0 OR matched < 0 OR matched > size')).map((row) => row.id);
  const live = new Map(
    (await q<{ id: string; line: string }>(
      "SELECT id, concat_ws(' ', maker, token_id, side, price, size, matched, reserved_asset, reserved) AS line FROM orders WHERE status = 'LIVE'",
    )).map((row) => [row.id, row.line]),
  );
  return {
    balances,
    totals,
    moves,
    markets,
    crossed,
    crossedWithSameSide,
    tradesNotSummingTheirFills,
    fees: { taker: BigInt(fees!.taker), maker: BigInt(fees!.maker), rebates: BigInt(fees!.rebates), feeAccountOrders: fees!.fee_account_orders },
    reservations,
    endedHoldingReserve,
    badOrders,
    live,
  };
}

function conservation(j: Journal, feeAccount: string): string[] {
  const problems: string[] = [];
  const moved = (kind: string, conditionId = '') => j.moves.get(`${kind}|${conditionId}`) ?? { amount: 0n, payout: 0n };
  const ofAllMarkets = (kind: string) => sum([...j.moves].filter(([key]) => key.startsWith(`${kind}|`)).map(([, m]) => m.amount));
  const crossed = (conditionId: string) => j.crossed.get(conditionId) ?? { minted: 0n, merged: 0n };

  for (const [key, balance] of j.balances) {
    if (balance.available < 0n || balance.reserved < 0n) problems.push(`balance ${key} below zero: ${balance.available}/${balance.reserved}`);
  }
  const payouts = sum([...j.moves].filter(([key]) => key.startsWith('redeem|')).map(([, m]) => m.payout));
  const minted = sum([...j.crossed.values()].map((c) => c.minted));
  const mergedByTrades = sum([...j.crossed.values()].map((c) => c.merged));
  const collateral =
    moved('deposit').amount - moved('withdrawal').amount - ofAllMarkets('split') + ofAllMarkets('merge') + payouts - minted + mergedByTrades;
  if ((j.totals.get(COLLATERAL) ?? 0n) !== collateral) {
    problems.push(`collateral: balances hold ${j.totals.get(COLLATERAL) ?? 0n}, the journal's moves and trades leave ${collateral}`);
  }
  const known = new Set([COLLATERAL]);
  for (const market of j.markets) {
    const pairs = moved('split', market.conditionId).amount - moved('merge', market.conditionId).amount + crossed(market.conditionId).minted - crossed(market.conditionId).merged;
    const redeemed = moved('redeem', market.conditionId);
    if (market.winningOutcome === -1 && (redeemed.amount !== 0n || redeemed.payout !== 0n)) problems.push(`market ${market.conditionId}: redeemed before resolution`);
    market.tokenIds.forEach((token, outcome) => {
      known.add(token);
      const burnt = market.winningOutcome === -1 ? 0n : outcome === market.winningOutcome ? redeemed.payout : redeemed.amount - redeemed.payout;
      const held = j.totals.get(token) ?? 0n;
      if (held !== pairs - burnt) problems.push(`market ${market.conditionId} outcome ${outcome}: balances hold ${held} shares, the journal leaves ${pairs - burnt}`);
    });
  }
  for (const [asset, held] of j.totals) if (!known.has(asset) && held !== 0n) problems.push(`balances hold ${held} of ${asset}, a token of no market`);
  if (j.crossedWithSameSide > 0) problems.push(`${j.crossedWithSameSide} fills of the other token on the opposite side (neither a mint nor a merge)`);
  if (j.tradesNotSummingTheirFills.length) problems.push(`trades whose shares are not their fills': ${j.tradesNotSummingTheirFills.join(', ')}`);
  for (const r of j.reservations) {
    if (r.balance !== r.orders) problems.push(`${r.address}|${r.asset}: reserved ${r.balance}, its resting orders reserve ${r.orders}`);
  }
  if (j.endedHoldingReserve.length) problems.push(`ended orders still reserving: ${j.endedHoldingReserve.join(', ')}`);
  if (j.badOrders.length) problems.push(`orders with a negative reservation or more matched than their size: ${j.badOrders.join(', ')}`);
  if (j.fees.feeAccountOrders === 0) {
    const own = (kind: string) => j.moves.get(`fee-account|${kind}`) ?? { amount: 0n, payout: 0n };
    const expected =
      j.fees.taker + j.fees.maker - j.fees.rebates + own('deposit').amount - own('withdrawal').amount - own('split').amount + own('merge').amount + own('redeem').payout;
    const balance = j.balances.get(`${feeAccount}|${COLLATERAL}`) ?? { available: 0n, reserved: 0n };
    if (balance.available + balance.reserved !== expected) {
      problems.push(`fee account holds ${balance.available + balance.reserved}, fees less rebates (and its own moves) come to ${expected}`);
    }
  }
  return problems;
}

function disagreements(j: Journal, state: EngineState): string[] {
  const problems: string[] = [];
  for (const [key, balance] of j.balances) {
    const [address, asset] = key.split('|') as [string, string];
    const memory = state.ledger.get(address, asset);
    if (BigInt(memory.available) !== balance.available || BigInt(memory.reserved) !== balance.reserved) {
      problems.push(`balance ${key}: journal ${balance.available}/${balance.reserved}, memory ${memory.available}/${memory.reserved}`);
    }
  }
  // Per asset, so that an account memory holds and the table lacks shows too.
  const assets = new Set([COLLATERAL, ...j.totals.keys(), ...[...state.markets.values()].flatMap((m) => m.tokenIds)]);
  for (const asset of assets) {
    const journal = j.totals.get(asset) ?? 0n;
    if (BigInt(state.ledger.total(asset)) !== journal) problems.push(`total of ${asset}: journal ${journal}, memory ${state.ledger.total(asset)}`);
  }
  const deposits = j.moves.get('deposit|')?.amount ?? 0n;
  const withdrawals = j.moves.get('withdrawal|')?.amount ?? 0n;
  if (BigInt(state.totals.deposits) !== deposits || BigInt(state.totals.withdrawals) !== withdrawals) {
    problems.push(`deposits/withdrawals: journal ${deposits}/${withdrawals}, memory ${state.totals.deposits}/${state.totals.withdrawals}`);
  }
  for (const market of j.markets) {
    const memory = state.markets.get(market.conditionId);
    if (!memory) problems.push(`market ${market.conditionId} is not in memory`);
    else if (memory.winningOutcome !== market.winningOutcome) problems.push(`market ${market.conditionId}: winner ${market.winningOutcome} journaled, ${memory.winningOutcome} in memory`);
  }
  for (const order of state.orders.values()) {
    const line = [order.maker, order.tokenId, order.side, order.price, order.size, order.matched, order.reservedAsset, order.reserved].join(' ');
    if (j.live.get(order.id) !== line) problems.push(`resting order ${order.id}: journal ${j.live.get(order.id) ?? 'not LIVE'}, memory ${line}`);
  }
  for (const id of j.live.keys()) if (!state.orders.has(id)) problems.push(`order ${id} is LIVE in the journal, not resting in memory`);
  return problems;
}

/** Reads the committed tables in one snapshot and audits them, and against `state` when given. */
export async function auditJournal(pool: Pool, feeAccount: string, state?: EngineState): Promise<JournalAudit> {
  // One snapshot: a batch is one statement, so every snapshot holds whole batches.
  const journal = await inTransaction(pool, (client) => read(client, feeAccount), 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  // Memory is read after the tables: it may be ahead of them (a batch in flight, or one committed since), never behind.
  return { conservation: conservation(journal, feeAccount), disagreements: state ? disagreements(journal, state) : [] };
}

/**
 * Conservation in the committed tables and in the engine's memory, and the two in agreement. Memory
 * may run ahead of the tables while a batch is in flight (an expiry, a heartbeat's cancels): the
 * comparison is read again until it agrees, for up to `timeoutMs`. Conservation in the tables is not
 * retried: every committed snapshot must conserve.
 */
export async function expectJournalConserved(pool: Pool, state: () => EngineState, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const last = await until(async () => {
    const result = await auditJournal(pool, state().settings.feeAccount, state());
    const settled = result.conservation.length > 0 || result.disagreements.length === 0;
    // Past the deadline the last reading is reported, with what differs.
    return settled || Date.now() > deadline ? result : undefined;
  }, timeoutMs + 60_000, 'an audit of the journal');
  expect(last.conservation).toEqual([]);
  expect(last.disagreements).toEqual([]);
  const memory = audit(state());
  expect(memory.unbalancedMarkets).toEqual([]);
  expect(memory.collateral + memory.backing).toBe(memory.deposits - memory.withdrawals);
}
