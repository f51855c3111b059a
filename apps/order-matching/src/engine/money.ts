import { fail, formatUnits, ok, type Failure, type MarketStateEvent, type MoneyMoveEvent, type Reply } from '@exchange/contracts';
import { cancelOrders, pullOffBooks } from './cancel-orders';
import type { EngineState } from './engine-state';
import { COLLATERAL } from './ledger';
import type { MoneyMove, MoneyMoveKind } from './effects';
import { isOpen, type MarketState } from './model';

/**
 * Money in and out without a chain, and the CTF operations on the ledger: split (collateral into a
 * YES + NO pair), merge (a pair back into collateral), resolution and redemption (docs/trading.md, "Ledger").
 */

/** A deposit or withdrawal as the operator asked for it; `address` in lower case. */
export interface ExternalMove {
  address: string;
  amount: number;
  reference?: string;
}

/** A move with the market it concerns (empty for deposits and withdrawals), as references record it. */
interface NamedMove extends ExternalMove {
  conditionId: string;
}

/** Whether the move was applied now or, under the same reference, before. */
export interface MoveOutcome {
  replayed: boolean;
}

export function deposit(state: EngineState, move: ExternalMove, now: number): Reply<MoveOutcome> {
  const earlier = earlierMove(state, 'deposit', { ...move, conditionId: '' });
  if (earlier) return earlier;
  // Every balance, and the audit's totals, are sums of deposits: past this they would no longer be exact.
  if (state.totals.deposits + move.amount > Number.MAX_SAFE_INTEGER) {
    return fail('conflict', `deposits would pass ${formatUnits(Number.MAX_SAFE_INTEGER)} in all, beyond what the ledger counts exactly`);
  }
  state.ledger.credit(move.address, COLLATERAL, move.amount);
  state.totals.deposits += move.amount;
  record(state, 'deposit', { ...move, conditionId: '' }, now);
  return ok({ replayed: false });
}

export function withdraw(state: EngineState, move: ExternalMove, now: number): Reply<MoveOutcome> {
  const earlier = earlierMove(state, 'withdrawal', { ...move, conditionId: '' });
  if (earlier) return earlier;
  // A refused withdrawal records nothing, so its reference stays free for a later attempt.
  if (!state.ledger.debit(move.address, COLLATERAL, move.amount)) return fail('insufficient_balance', 'not enough available collateral');
  state.totals.withdrawals += move.amount;
  record(state, 'withdrawal', { ...move, conditionId: '' }, now);
  return ok({ replayed: false });
}

/** The answer to a move whose reference was applied before: the same move again, or a conflict. */
function earlierMove(state: EngineState, kind: MoneyMoveKind, move: NamedMove): Reply<MoveOutcome> | undefined {
  if (move.reference === undefined) return undefined;
  const first = state.moneyReferences.get(kind, move.reference, move.address);
  if (!first) return undefined;
  if (first.address === move.address && first.amount === move.amount && first.conditionId === move.conditionId) return ok({ replayed: true });
  const what = first.conditionId ? `of market ${first.conditionId}` : kind === 'deposit' ? `to ${first.address}` : `from ${first.address}`;
  return fail('conflict', `reference ${move.reference} already names a ${kind} of ${formatUnits(first.amount)} ${what}`);
}

function record(state: EngineState, kind: MoneyMoveKind, move: NamedMove, now: number): void {
  const { address, conditionId, amount, reference } = move;
  if (reference !== undefined) state.moneyReferences.add(kind, reference, { address, conditionId, amount });
  journal(state, { kind, address, conditionId, amount, payout: 0, reference }, [], now);
}

/**
 * The move's journal line and its event: consumers keeping balances or positions (portfolio, user
 * channels) learn of splits, merges and redemptions only so (found by a probe rebuilding balances).
 */
function journal(state: EngineState, move: MoneyMove, shares: MoneyMoveEvent['shares'], now: number): void {
  state.effects.moves.push(move);
  const { kind, address, conditionId, amount, payout, reference } = move;
  const payload: MoneyMoveEvent = { kind, address, conditionId, amount: String(amount), payout: String(payout), shares, timestamp: now };
  if (reference !== undefined) payload.reference = reference;
  state.effects.events.push({ type: 'money-move', data: payload });
}

function openMarket(state: EngineState, conditionId: string): MarketState | Failure {
  const market = state.markets.get(conditionId.toLowerCase());
  if (!market) return fail('market_not_found', `market ${conditionId} not found`);
  if (market.winningOutcome !== -1) return fail('market_resolved', `market ${conditionId} is resolved`);
  return market;
}

/** Collateral into a YES + NO pair; `reference`, the trader's name for it, makes a retry answer instead of apply. */
export function split(state: EngineState, address: string, conditionId: string, amount: number, now: number, reference?: string): Reply<MoveOutcome> {
  const market = openMarket(state, conditionId);
  if ('ok' in market) return market;
  const move = { address, conditionId: market.conditionId, amount, reference };
  const earlier = earlierMove(state, 'split', move);
  if (earlier) return earlier;
  if (!state.ledger.debit(address, COLLATERAL, amount)) return fail('insufficient_balance', 'not enough available collateral');
  state.ledger.credit(address, market.tokenIds[0], amount);
  state.ledger.credit(address, market.tokenIds[1], amount);
  record(state, 'split', move, now);
  return ok({ replayed: false });
}

/** A YES + NO pair back into collateral; `reference` as for split. */
export function merge(state: EngineState, address: string, conditionId: string, amount: number, now: number, reference?: string): Reply<MoveOutcome> {
  const market = openMarket(state, conditionId);
  if ('ok' in market) return market;
  const move = { address, conditionId: market.conditionId, amount, reference };
  const earlier = earlierMove(state, 'merge', move);
  if (earlier) return earlier;
  const [yes, no] = market.tokenIds;
  if (!state.ledger.covers(address, yes, amount) || !state.ledger.covers(address, no, amount)) {
    return fail('insufficient_balance', 'not enough available shares of both outcomes');
  }
  state.ledger.debit(address, yes, amount);
  state.ledger.debit(address, no, amount);
  state.ledger.credit(address, COLLATERAL, amount);
  record(state, 'merge', move, now);
  return ok({ replayed: false });
}

/**
 * Resolution fixes the winner and closes the market, and ends its resting orders: the first `step`
 * now, the rest (`later`, taken off the book now: pullOffBooks) by endResolvedOrders in later commands
 * (stepped-cancels.ts). One command for 10,000 orders held every other order for about 600 ms.
 */
export function resolve(state: EngineState, conditionId: string, winner: 0 | 1, now: number, step = Infinity): Reply<{ canceled: number; later: string[] }> {
  const market = openMarket(state, conditionId);
  if ('ok' in market) return market;
  const winnerBefore = winner === 0 ? yesOfNegRiskEvent(state, market.negRiskMarketId) : undefined;
  if (winnerBefore) {
    return fail('conflict', `market ${winnerBefore.conditionId} of the same neg-risk event resolved ${winnerBefore.outcomes[0]}: only one market of a neg-risk event can`);
  }
  // A copy: each cancel removes the order from the market's set.
  const resting = [...state.byMarket.of(market.conditionId)];
  if (resting.length > step) pullOffBooks(state, resting, now);
  const first = resting.slice(0, step);
  cancelOrders(state, first, now, 'CANCELED_MARKET_RESOLVED');
  market.winningOutcome = winner;
  market.acceptingOrders = false;
  state.effects.markets.add(market);
  const payload: MarketStateEvent = { conditionId: market.conditionId, winningOutcome: winner, resolvedAt: now };
  state.effects.events.push({ type: 'market-resolved', data: payload });
  return ok({ canceled: first.length, later: resting.slice(first.length).map((order) => order.id) });
}

/** A later step of a resolution: ends those of its orders still open (one may have expired or been cancelled since). */
export function endResolvedOrders(state: EngineState, ids: string[], now: number): void {
  const open = ids.flatMap((id) => {
    const order = state.orders.get(id);
    return order && isOpen(order) ? [order] : [];
  });
  cancelOrders(state, open, now, 'CANCELED_MARKET_RESOLVED');
}

/** Ends the orders a resolution left open when the engine stopped between its steps (they are loaded as resting). */
export function endOrdersOfResolvedMarkets(state: EngineState, now: number): void {
  for (const market of state.markets.values()) {
    if (market.winningOutcome !== -1) cancelOrders(state, [...state.byMarket.of(market.conditionId)], now, 'CANCELED_MARKET_RESOLVED');
  }
}

/**
 * The market of a neg-risk event that resolved Yes, if one did: the event's outcomes exclude each other,
 * as upstream's neg-risk adapter has it (a second Yes was accepted until the eighteenth session; found by a probe).
 */
function yesOfNegRiskEvent(state: EngineState, negRiskMarketId: string): MarketState | undefined {
  if (negRiskMarketId === '') return undefined;
  for (const market of state.markets.values()) {
    if (market.negRiskMarketId === negRiskMarketId && market.winningOutcome === 0) return market;
  }
  return undefined;
}

/** Burns both outcomes' shares of a resolved market; each winning share pays one unit of collateral. */
export function redeem(state: EngineState, address: string, conditionId: string, now: number): Reply<{ payout: number }> {
  const market = state.markets.get(conditionId.toLowerCase());
  if (!market) return fail('market_not_found', `market ${conditionId} not found`);
  if (market.winningOutcome === -1) return fail('market_not_resolved', `market ${conditionId} is not resolved yet`);
  // Orders the resolution has yet to end (its later steps, about a second) still hold shares: redeemed
  // now, those would be left for a second redemption.
  if (state.byMarket.of(market.conditionId).size > 0) return fail('too_early', `market ${conditionId} is still ending its resting orders; retry shortly`, 1);
  const held = market.tokenIds.map((token) => state.ledger.get(address, token).available);
  if (held[0] === 0 && held[1] === 0) return fail('nothing_to_redeem', 'no shares of this market to redeem');
  market.tokenIds.forEach((token, i) => state.ledger.debit(address, token, held[i]!));
  const payout = held[market.winningOutcome]!;
  state.ledger.credit(address, COLLATERAL, payout);
  const shares = market.tokenIds.map((tokenId, i) => ({ tokenId, size: String(held[i]) }));
  journal(state, { kind: 'redeem', address, conditionId: market.conditionId, amount: held[0]! + held[1]!, payout }, shares, now);
  return ok({ payout });
}

export interface Audit {
  deposits: number;
  withdrawals: number;
  collateral: number;
  /** Collateral locked behind outstanding YES/NO pairs and unredeemed winning shares. */
  backing: number;
  /** Markets whose YES and NO supplies differ while unresolved (must be none). */
  unbalancedMarkets: string[];
  balanced: boolean;
}

/**
 * Conservation (ARCHITECTURE.md): collateral of all accounts plus one unit per outstanding pair (or
 * per unredeemed winning share after resolution) equals deposits minus withdrawals.
 */
export function audit(state: EngineState): Audit {
  const collateral = state.ledger.total(COLLATERAL);
  let backing = 0;
  const unbalancedMarkets: string[] = [];
  for (const market of state.markets.values()) {
    const [yes, no] = market.tokenIds.map((t) => state.ledger.total(t)) as [number, number];
    if (market.winningOutcome === -1) {
      if (yes !== no) unbalancedMarkets.push(market.conditionId);
      backing += yes;
    } else {
      backing += market.winningOutcome === 0 ? yes : no;
    }
  }
  const { deposits, withdrawals } = state.totals;
  return {
    deposits,
    withdrawals,
    collateral,
    backing,
    unbalancedMarkets,
    balanced: unbalancedMarkets.length === 0 && collateral + backing === deposits - withdrawals,
  };
}
