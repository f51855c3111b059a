import { DepositWallets } from './deposit-wallets';
import { Effects } from './effects';
import { EndedOrderIds } from './ended-order-ids';
import { ExpiryQueue } from './expiry-queue';
import { gtdEndSecond } from './gtd-expiration';
import { Ledger } from './ledger';
import { MoneyReferences } from './money-references';
import type { MarketState, OrderState } from './model';
import { OrderIndex } from './order-index';

export interface EngineSettings {
  /** Where taker fees (less maker rebates) go; lower-case address. */
  feeAccount: string;
  /** Ids of trades; the only thing the engine does not derive from its input. */
  newId(): string;
  /** The most resting orders one order may trade with (`MAX_MAKERS_PER_ORDER`); DEFAULT_MAX_MAKERS_PER_ORDER when left out. */
  maxMakersPerOrder?: number;
  /** The most orders one account may have resting (`MAX_OPEN_ORDERS_PER_ACCOUNT`); DEFAULT_MAX_OPEN_ORDERS_PER_ACCOUNT when left out. */
  maxOpenOrdersPerAccount?: number;
  /** The most a fill's fee may be, in basis points of its value (`MAX_FEE_RATE_BPS`); DEFAULT_MAX_FEE_RATE_BPS when left out. */
  maxFeeRateBps?: number;
}

/**
 * Upstream's exchange contract refuses a fee above `maxFeeRateBps` of a fill's value (UPSTREAM.md, "Fees":
 * 500, 5%, by default), so no fee here is more either: the formula asks more at prices far from 0.50
 * (a 0.07 rate: 6.3% of a buy at 0.10; found by a probe).
 */
export const DEFAULT_MAX_FEE_RATE_BPS = 500;

/**
 * Decision: an order that would trade with more resting orders than this is refused whole. The engine
 * settles, journals and publishes every fill of an order in one turn of its single thread: a sweep of
 * 20,000 makers held every market for 4-6 s and its own answer ran past the gateway's timeout (found by
 * a scale probe).
 */
export const DEFAULT_MAX_MAKERS_PER_ORDER = 1_000;

/**
 * Decision: an account with this many resting orders can place no order that may rest (GTC, GTD) until
 * some end; FOK and FAK orders and cancels go on. A runaway bot that places without cancelling otherwise
 * grows the engine's memory, its start (every resting order is loaded) and its own cancel-all without
 * bound (docs/trading.md, "Matching").
 */
export const DEFAULT_MAX_OPEN_ORDERS_PER_ACCOUNT = 10_000;

/** Stale expiry entries tolerated beyond the live ones before a compaction is worth its pass. */
const COMPACTION_SLACK = 1024;

/**
 * Everything order-matching knows, in memory: markets with their books, orders, balances. Rebuilt
 * from the database at start; changed only by the command functions, which record what they changed
 * in `effects` for the next journal batch.
 */
export class EngineState {
  readonly markets = new Map<string, MarketState>();
  readonly tokens = new Map<string, { market: MarketState; outcome: 0 | 1 }>();
  /**
   * Resting orders by id, by seq (their id in the books), by owner (API key), by maker (address) and by
   * market, so that cancels and resolution touch only the orders they end; an order leaves all five
   * when it ends.
   */
  readonly orders = new Map<string, OrderState>();
  readonly bySeq = new Map<number, OrderState>();
  readonly byOwner = new OrderIndex((order) => order.owner);
  readonly byMaker = new OrderIndex((order) => order.maker);
  readonly byMarket = new OrderIndex((order) => order.conditionId);
  /** Ids of orders that ended, with their seqs: an order hash is never accepted twice. */
  readonly pastIds = new EndedOrderIds();
  /** GTD orders by the second they end; an ended order's entry stays until it comes due or is compacted away. */
  private readonly expiries = new ExpiryQueue();
  /** How many resting orders have an entry in `expiries` (the rest of its entries are stale). */
  private restingWithExpiry = 0;
  readonly ledger = new Ledger();
  readonly totals = { deposits: 0, withdrawals: 0 };
  readonly moneyReferences = new MoneyReferences();
  readonly wallets = new DepositWallets();
  /** Per market, the sequence number of its last book event. */
  readonly bookSeq = new Map<string, number>();
  /** Per market, the time (ms) of its last book event: the time of the book handed out in a snapshot. */
  readonly bookTime = new Map<string, number>();
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

  /** A LIVE order joins the indexes; `retire` is the only way out. */
  addOrder(order: OrderState): void {
    this.orders.set(order.id, order);
    this.bySeq.set(order.seq, order);
    this.byOwner.add(order);
    this.byMaker.add(order);
    this.byMarket.add(order);
    if (order.expiration > 0) {
      this.expiries.push(gtdEndSecond(order.expiration), order.seq);
      this.restingWithExpiry++;
    }
    if (order.seq >= this.nextSeq) this.nextSeq = order.seq + 1;
  }

  /** An order that left its book is kept only as its id (the journal still holds the object). */
  retire(order: OrderState): void {
    this.orders.delete(order.id);
    this.bySeq.delete(order.seq);
    this.byOwner.delete(order);
    this.byMaker.delete(order);
    this.byMarket.delete(order);
    if (order.expiration > 0) this.restingWithExpiry--;
    this.pastIds.add(order.id, order.seq);
  }

  /** The seq (the key of its row) of an order placed here, resting or ended. */
  seqOf(id: string): number | undefined {
    return this.orders.get(id)?.seq ?? this.pastIds.seqOf(id);
  }

  /**
   * Takes the resting orders whose end (gtd-expiration.ts) is at or before `now` (ms) out of the expiry
   * queue, by end then seq, for the caller to end. Entries of orders that ended earlier are dropped here,
   * which keeps cancels O(1); once most entries are such leftovers (GTD quotes canceled long before
   * they expire), the queue is compacted so that it does not grow with canceled orders.
   */
  /** When the earliest resting GTD order may end (unix ms; an entry of an order ended since may come first). */
  nextExpiry(): number | undefined {
    const second = this.expiries.earliest;
    return second === undefined ? undefined : second * 1000;
  }

  takeExpired(now: number): OrderState[] {
    if (this.expiries.size > 2 * this.restingWithExpiry + COMPACTION_SLACK) this.expiries.retain((entry) => this.bySeq.has(entry.seq));
    const second = Math.floor(now / 1000);
    const due: OrderState[] = [];
    for (let next = this.expiries.popDue(second); next; next = this.expiries.popDue(second)) {
      const order = this.bySeq.get(next.seq);
      if (order) due.push(order);
    }
    return due;
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
