import { fail, ok, type Failure, type MarketStateEvent, type Reply } from '@exchange/contracts';
import { cancelOrder } from './cancel-orders';
import type { EngineState } from './engine-state';
import { COLLATERAL } from './ledger';
import type { MarketState } from './model';

/**
 * Money in and out without a chain, and the CTF operations on the ledger: split (collateral into a
 * YES + NO pair), merge (a pair back into collateral), resolution and redemption (docs/ledger.md).
 */

export function deposit(state: EngineState, address: string, amount: number): Reply<true> {
  state.ledger.credit(address, COLLATERAL, amount);
  state.totals.deposits += amount;
  state.effects.moves.push({ kind: 'deposit', address, conditionId: '', amount, payout: 0 });
  return ok(true);
}

export function withdraw(state: EngineState, address: string, amount: number): Reply<true> {
  if (!state.ledger.debit(address, COLLATERAL, amount)) return fail('insufficient_balance', 'not enough available collateral');
  state.totals.withdrawals += amount;
  state.effects.moves.push({ kind: 'withdrawal', address, conditionId: '', amount, payout: 0 });
  return ok(true);
}

function openMarket(state: EngineState, conditionId: string): MarketState | Failure {
  const market = state.markets.get(conditionId.toLowerCase());
  if (!market) return fail('market_not_found', `market ${conditionId} not found`);
  if (market.winningOutcome !== -1) return fail('market_resolved', `market ${conditionId} is resolved`);
  return market;
}

export function split(state: EngineState, address: string, conditionId: string, amount: number): Reply<true> {
  const market = openMarket(state, conditionId);
  if ('ok' in market) return market;
  if (!state.ledger.debit(address, COLLATERAL, amount)) return fail('insufficient_balance', 'not enough available collateral');
  state.ledger.credit(address, market.tokenIds[0], amount);
  state.ledger.credit(address, market.tokenIds[1], amount);
  state.effects.moves.push({ kind: 'split', address, conditionId: market.conditionId, amount, payout: 0 });
  return ok(true);
}

export function merge(state: EngineState, address: string, conditionId: string, amount: number): Reply<true> {
  const market = openMarket(state, conditionId);
  if ('ok' in market) return market;
  const [yes, no] = market.tokenIds;
  if (state.ledger.get(address, yes).available < amount || state.ledger.get(address, no).available < amount) {
    return fail('insufficient_balance', 'not enough available shares of both outcomes');
  }
  state.ledger.debit(address, yes, amount);
  state.ledger.debit(address, no, amount);
  state.ledger.credit(address, COLLATERAL, amount);
  state.effects.moves.push({ kind: 'merge', address, conditionId: market.conditionId, amount, payout: 0 });
  return ok(true);
}

/** Resolution cancels every resting order of the market and fixes the winner. */
export function resolve(state: EngineState, conditionId: string, winner: 0 | 1, now: number): Reply<{ canceled: number }> {
  const market = openMarket(state, conditionId);
  if ('ok' in market) return market;
  // A copy: each cancel removes the order from the market's set.
  const resting = [...state.byMarket.of(market.conditionId)];
  for (const order of resting) cancelOrder(state, order, now, 'CANCELED_MARKET_RESOLVED');
  market.winningOutcome = winner;
  market.acceptingOrders = false;
  state.effects.markets.add(market);
  const payload: MarketStateEvent = { conditionId: market.conditionId, winningOutcome: winner, resolvedAt: now };
  state.effects.events.push({ type: 'market-resolved', data: payload });
  return ok({ canceled: resting.length });
}

/** Burns both outcomes' shares of a resolved market; each winning share pays one unit of collateral. */
export function redeem(state: EngineState, address: string, conditionId: string): Reply<{ payout: number }> {
  const market = state.markets.get(conditionId.toLowerCase());
  if (!market) return fail('market_not_found', `market ${conditionId} not found`);
  if (market.winningOutcome === -1) return fail('market_not_resolved', `market ${conditionId} is not resolved yet`);
  const held = market.tokenIds.map((token) => state.ledger.get(address, token).available);
  if (held[0] === 0 && held[1] === 0) return fail('nothing_to_redeem', 'no shares of this market to redeem');
  market.tokenIds.forEach((token, i) => state.ledger.debit(address, token, held[i]!));
  const payout = held[market.winningOutcome]!;
  state.ledger.credit(address, COLLATERAL, payout);
  state.effects.moves.push({ kind: 'redeem', address, conditionId: market.conditionId, amount: held[0]! + held[1]!, payout });
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
