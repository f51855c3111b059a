import type { CancelResult, Caller } from '@exchange/contracts';
import type { Side } from '../core';
import { bookSide, flipFor } from './book-terms';
import { callerAccounts } from './caller-accounts';
import { recordBookChanges, recordOrderEvent } from './engine-events';
import type { EngineState } from './engine-state';
import { isOpen, type OrderState } from './model';
import { finish } from './place-order';

/** The book levels orders left, by market, for one book change per market. */
class LeftLevels {
  private readonly byMarket = new Map<string, [Side, number][]>();

  /** Takes the order off its book; notes its level unless it was off already (pulled, below). */
  take(state: EngineState, order: OrderState): void {
    if (state.markets.get(order.conditionId)!.book.cancel(order.seq) === 0) return;
    const level: [Side, number] = [bookSide(order.side, order.outcome), flipFor(order.outcome, order.price)];
    const ofMarket = this.byMarket.get(order.conditionId);
    if (ofMarket) ofMarket.push(level);
    else this.byMarket.set(order.conditionId, [level]);
  }

  /**
   * One book change per market with every level the orders left: one event per cancelled order made a
   * cancel of 10,000 orders write 10,000 book events besides its order events.
   */
  record(state: EngineState, now: number): void {
    for (const [conditionId, changed] of this.byMarket) recordBookChanges(state, state.markets.get(conditionId)!, changed, now);
  }
}

/** Takes open orders off their books, releases what they reserved and records their ends. */
export function cancelOrders(state: EngineState, orders: Iterable<OrderState>, now: number, status: OrderState['status'] = 'CANCELED'): void {
  const left = new LeftLevels();
  for (const order of orders) {
    left.take(state, order);
    finish(state, order, status);
    recordOrderEvent(state, order, 'CANCELLATION', now);
  }
  left.record(state, now);
}

/**
 * Takes the caller's open orders named by id off their books and nothing else: they stay open, with what
 * they reserved, until cancelOrders ends them (a later step of a large cancel, stepped-cancels.ts), and
 * no order can trade with them meanwhile. Their book changes are recorded now; a restart before their
 * end puts them back on the books, and restates the books for market data (engine.service.ts).
 */
export function pullFromBooks(state: EngineState, caller: Caller, ids: string[], now: number): void {
  const accounts = callerAccounts(state, caller);
  const left = new LeftLevels();
  for (const id of ids) {
    const order = state.orders.get(id);
    if (order && holds(caller, accounts, order) && isOpen(order)) left.take(state, order);
  }
  left.record(state, now);
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
