import type { CancelResult, Caller } from '@exchange/contracts';
import type { Side } from '../core';
import { bookSide, flipFor } from './book-terms';
import { callerAccounts } from './caller-accounts';
import { recordBookChanges, recordOrderEvent } from './engine-events';
import type { EngineState } from './engine-state';
import { isOpen, type OrderState } from './model';
import { finish } from './place-order';

/** Takes one open order off its book and releases what it reserved; answers the book level it changed. */
function cancelOrder(state: EngineState, order: OrderState, now: number, status: OrderState['status']): [Side, number] {
  state.markets.get(order.conditionId)!.book.cancel(order.seq);
  finish(state, order, status);
  recordOrderEvent(state, order, 'CANCELLATION', now);
  return [bookSide(order.side, order.outcome), flipFor(order.outcome, order.price)];
}

/**
 * Cancels open orders, then records one book change per market with every level they left: one event
 * per cancelled order made a cancel of 10,000 orders write 10,000 book events besides its order events.
 */
export function cancelOrders(state: EngineState, orders: Iterable<OrderState>, now: number, status: OrderState['status'] = 'CANCELED'): void {
  const levels = new Map<string, [Side, number][]>();
  for (const order of orders) {
    const level = cancelOrder(state, order, now, status);
    const ofMarket = levels.get(order.conditionId);
    if (ofMarket) ofMarket.push(level);
    else levels.set(order.conditionId, [level]);
  }
  for (const [conditionId, changed] of levels) recordBookChanges(state, state.markets.get(conditionId)!, changed, now);
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

/** Ids of the caller's resting orders that `keep` accepts, oldest first: what a cancel-all or a cancel by market ends. */
export function callerOrderIds(state: EngineState, caller: Caller, keep: (order: OrderState) => boolean): string[] {
  return callerOrders(state, caller).filter(keep).map((order) => order.id);
}

/** Cancels the caller's orders by id; ids of others' orders read as not found. Duplicates are ignored. */
export function cancelByIds(state: EngineState, caller: Caller, ids: string[], now: number): CancelResult {
  const result: CancelResult = { canceled: [], not_canceled: {} };
  const accounts = callerAccounts(state, caller);
  const ending: OrderState[] = [];
  for (const id of new Set(ids)) {
    const order = state.orders.get(id);
    if (!order || !holds(caller, accounts, order) || !isOpen(order)) result.not_canceled[id] = "order can't be found - already canceled or matched";
    else {
      ending.push(order);
      result.canceled.push(id);
    }
  }
  cancelOrders(state, ending, now);
  return result;
}

/** Cancels the GTD orders whose end has come (gtd-expiration.ts), by expiration then seq; returns their ids. */
export function expireOrders(state: EngineState, now: number): string[] {
  const expired = state.takeExpired(now);
  cancelOrders(state, expired, now);
  return expired.map((order) => order.id);
}
