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
 * Takes open orders off their books and nothing else: they stay open, with what they reserved, until
 * cancelOrders ends them (a later step of a large cancel or resolution, stepped-cancels.ts), and no
 * order can trade with them meanwhile. Their book changes are recorded now; a restart before their end
 * puts them back on the books, and restates the books for market data (engine.service.ts).
 */
export function pullOffBooks(state: EngineState, orders: Iterable<OrderState>, now: number): void {
  const left = new LeftLevels();
  for (const order of orders) left.take(state, order);
  left.record(state, now);
}

/** The caller's open orders among `ids` (each once), and the ids that are not such an order. */
export function callerOpenOrders(state: EngineState, caller: Caller, ids: string[]): { open: OrderState[]; notFound: string[] } {
  const accounts = callerAccounts(state, caller);
  const open: OrderState[] = [];
  const notFound: string[] = [];
  for (const id of new Set(ids)) {
    const order = state.orders.get(id);
    if (order && holds(caller, accounts, order) && isOpen(order)) open.push(order);
    else notFound.push(id);
  }
  return { open, notFound };
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
  const { open, notFound } = callerOpenOrders(state, caller, ids);
  cancelOrders(state, open, now);
  return {
    canceled: open.map((order) => order.id),
    not_canceled: Object.fromEntries(notFound.map((id) => [id, "order can't be found - already canceled or matched"])),
  };
}

/** Cancels the GTD orders whose end has come (gtd-expiration.ts), by expiration then seq; returns their ids. */
export function expireOrders(state: EngineState, now: number): string[] {
  const expired = state.takeExpired(now);
  cancelOrders(state, expired, now);
  return expired.map((order) => order.id);
}
