import type { CancelResult } from '@exchange/contracts';
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

/** Cancels the caller's orders by id; ids of others' orders read as not found. Duplicates are ignored. */
export function cancelByIds(state: EngineState, apiKey: string, ids: string[], now: number): CancelResult {
  const result: CancelResult = { canceled: [], not_canceled: {} };
  for (const id of new Set(ids)) {
    const order = state.orders.get(id);
    if (!order || order.owner !== apiKey || !isOpen(order)) result.not_canceled[id] = "order can't be found - already canceled or matched";
    else {
      cancelOrder(state, order, now);
      result.canceled.push(id);
    }
  }
  return result;
}

/** Cancels every open order of an API key that passes the filter. */
export function cancelWhere(state: EngineState, apiKey: string, keep: (order: OrderState) => boolean, now: number): CancelResult {
  const result: CancelResult = { canceled: [], not_canceled: {} };
  // A copy: each cancel removes the order from the caller's set.
  for (const order of [...state.byOwner.of(apiKey)]) {
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
