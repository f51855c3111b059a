import type { CancelResult, Caller } from '@exchange/contracts';
import { bookSide, flipFor } from './book-terms';
import { callerAccounts } from './caller-accounts';
import { recordBookChanges, recordOrderEvent } from './engine-events';
import type { EngineState } from './engine-state';
import { isOpen, type OrderState } from './model';
import { finish } from './place-order';

/** Takes one open order off its book and releases what it reserved. */
export function cancelOrder(state: EngineState, order: OrderState, now: number, status: OrderState['status'] = 'CANCELED'): void {
  const market = state.markets.get(order.conditionId)!;
  market.book.cancel(order.seq);
  finish(state, order, status);
  recordOrderEvent(state, order, 'CANCELLATION', now);
  recordBookChanges(state, market, [[bookSide(order.side, order.outcome), flipFor(order.outcome, order.price)]], now);
}

/**
 * A caller's orders, for cancels as for reads (queries.service.ts): those its API key placed and those
 * its accounts made (its address, its deposit wallet), so that any key of an owner can end that owner's
 * orders (a deleted key's too).
 */
function holds(caller: Caller, accounts: string[], order: OrderState): boolean {
  return order.owner === caller.apiKey || accounts.includes(order.maker);
}

/** The caller's resting orders, oldest first. */
export function callerOrders(state: EngineState, caller: Caller): OrderState[] {
  const sets = [state.byOwner.of(caller.apiKey), ...callerAccounts(state, caller).map((account) => state.byMaker.of(account))].filter((set) => set.size > 0);
  if (sets.length === 0) return [];
  if (sets.length === 1) return [...sets[0]!];
  return [...new Set(sets.flatMap((set) => [...set]))].sort((a, b) => a.seq - b.seq);
}

/** Cancels the caller's orders by id; ids of others' orders read as not found. Duplicates are ignored. */
export function cancelByIds(state: EngineState, caller: Caller, ids: string[], now: number): CancelResult {
  const result: CancelResult = { canceled: [], not_canceled: {} };
  const accounts = callerAccounts(state, caller);
  for (const id of new Set(ids)) {
    const order = state.orders.get(id);
    if (!order || !holds(caller, accounts, order) || !isOpen(order)) result.not_canceled[id] = "order can't be found - already canceled or matched";
    else {
      cancelOrder(state, order, now);
      result.canceled.push(id);
    }
  }
  return result;
}

/** Cancels the orders given (a copy is walked: each cancel leaves the indexes) that pass the filter, in their order. */
export function cancelWhere(state: EngineState, orders: Iterable<OrderState>, keep: (order: OrderState) => boolean, now: number): CancelResult {
  const result: CancelResult = { canceled: [], not_canceled: {} };
  for (const order of [...orders]) {
    if (!keep(order)) continue;
    cancelOrder(state, order, now);
    result.canceled.push(order.id);
  }
  return result;
}

/** Cancels the GTD orders whose end has come (gtd-expiration.ts), by expiration then seq; returns their ids. */
export function expireOrders(state: EngineState, now: number): string[] {
  const expired = state.takeExpired(now);
  for (const order of expired) cancelOrder(state, order, now);
  return expired.map((order) => order.id);
}
