import { Effects } from './effects';
import { Ledger } from './ledger';
import type { MarketState, OrderState } from './model';

export interface EngineSettings {
  /** Where taker fees (less maker rebates) go; lower-case address. */
  feeAccount: string;
  /** Ids of trades; the only thing the engine does not derive from its input. */
  newId(): string;
}

/**
 * Everything order-matching knows, in memory: markets with their books, orders, balances. Rebuilt
 * from the database at start; changed only by the command functions, which record what they changed
 * in `effects` for the next journal batch.
 */
export class EngineState {
  readonly markets = new Map<string, MarketState>();
  readonly tokens = new Map<string, { market: MarketState; outcome: 0 | 1 }>();
  /** Resting orders by id and by seq (their id in the books); an order leaves them when it ends. */
  readonly orders = new Map<string, OrderState>();
  readonly bySeq = new Map<number, OrderState>();
  /** Ids of orders that ended: an order hash is never accepted twice. */
  readonly pastIds = new Set<string>();
  /** The orders resting on books. */
  readonly open = new Set<OrderState>();
  readonly ledger = new Ledger();
  readonly totals = { deposits: 0, withdrawals: 0 };
  /** Per market, the sequence number of its last book event. */
  readonly bookSeq = new Map<string, number>();
  nextSeq = 1;
  /** Exchange-wide post-only mode until this time (ms); 0 when off. */
  postOnlyUntil = 0;
  effects = new Effects();

  constructor(readonly settings: EngineSettings) {}

  addMarket(market: MarketState): void {
    this.markets.set(market.conditionId, market);
    this.tokens.set(market.tokenIds[0], { market, outcome: 0 });
    this.tokens.set(market.tokenIds[1], { market, outcome: 1 });
  }

  addOrder(order: OrderState): void {
    this.orders.set(order.id, order);
    this.bySeq.set(order.seq, order);
    if (order.status === 'LIVE') this.open.add(order);
    if (order.seq >= this.nextSeq) this.nextSeq = order.seq + 1;
  }

  /** An order that left its book is kept only as its id (the journal still holds the object). */
  retire(order: OrderState): void {
    this.open.delete(order);
    this.orders.delete(order.id);
    this.bySeq.delete(order.seq);
    this.pastIds.add(order.id);
  }

  touch(order: OrderState): void {
    this.effects.orders.set(order.id, order);
  }

  /** Hands over what changed since the last call and starts a new collection. */
  takeEffects(): Effects {
    const effects = this.effects;
    effects.balances = this.ledger.takeChanged();
    this.effects = new Effects();
    return effects;
  }
}
