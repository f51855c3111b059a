import type { CancelResult, Caller } from '@exchange/contracts';
import { bookSide, flipFor } from './book-terms';
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
 * its address made, so that any key of an address can end that address's orders (a deleted key's too).
 */
function holds(caller: Caller, order: OrderState): boolean {
  return order.owner === caller.apiKey || order.maker === caller.address.toLowerCase();
}

/** The caller's resting orders, oldest first. */
export function callerOrders(state: EngineState, caller: Caller): OrderState[] {
  const byKey = state.byOwner.of(caller.apiKey);
  const byAddress = state.byMaker.of(caller.address.toLowerCase());
  if (byAddress.size === 0) return [...byKey];
  if (byKey.size === 0) return [...byAddress];
  return [...new Set([...byKey, ...byAddress])].sort((a, b) => a.seq - b.seq);
}

/** Cancels the caller's orders by id; ids of others' orders read as not found. Duplicates are ignored. */
export function cancelByIds(state: EngineState, caller: Caller, ids: string[], now: number): CancelResult {
  const result: CancelResult = { canceled: [], not_canceled: {} };
  for (const id of new Set(ids)) {
    const order = state.orders.get(id);
    if (!order || !holds(caller, order) || !isOpen(order)) result.not_canceled[id] = "order can't be found - already canceled or matched";
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
