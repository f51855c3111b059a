/** Trading resources on the wire (SPEC.md and UPSTREAM.md section 3). */

export type OrderResultStatus = 'live' | 'matched' | 'delayed' | 'unmatched';

/** POST /order and the elements of POST /orders. Amounts are decimal strings ("5.2"). */
export interface OrderResult {
  success: boolean;
  errorMsg: string;
  orderID: string;
  takingAmount: string;
  makingAmount: string;
  status: OrderResultStatus | '';
  orderHash: string;
  code: string;
  retry_after_seconds: number;
  transactionsHashes: string[];
  tradeIDs: string[];
}

export type OpenOrderStatus = 'LIVE' | 'MATCHED' | 'CANCELED' | 'CANCELED_MARKET_RESOLVED' | 'INVALID';

/** GET /data/order/{id} and the elements of GET /data/orders. Sizes are share decimals ("10"). */
export interface OpenOrder {
  id: string;
  status: OpenOrderStatus;
  owner: string;
  maker_address: string;
  market: string;
  asset_id: string;
  side: 'BUY' | 'SELL';
  original_size: string;
  size_matched: string;
  price: string;
  outcome: string;
  expiration: string;
  order_type: string;
  associate_trades: string[];
  created_at: number;
}

export interface MakerOrder {
  order_id: string;
  maker_address: string;
  owner: string;
  matched_amount: string;
  fee_rate_bps: string;
  price: string;
  asset_id: string;
  outcome: string;
  side: string;
}

/** GET /data/trades element: one taker order's match, with the maker orders it matched. */
export interface Trade {
  id: string;
  taker_order_id: string;
  market: string;
  asset_id: string;
  side: string;
  size: string;
  fee_rate_bps: string;
  price: string;
  status: string;
  match_time: string;
  /** Upstream's field: the match time in nanoseconds, a decimal string (kept to the millisecond here). */
  match_time_nano: string;
  last_update: string;
  outcome: string;
  bucket_index: number;
  owner: string;
  maker_address: string;
  transaction_hash: string;
  /** Upstream's field: why settling the trade failed; always empty, as trades here settle in the commit that matched them. */
  err_msg: string;
  type: 'TAKER' | 'MAKER';
  trader_side: 'TAKER' | 'MAKER';
  maker_orders: MakerOrder[];
}

export interface Page<T> {
  data: T[];
  next_cursor: string;
  limit: number;
  count: number;
}

export interface CancelResult {
  canceled: string[];
  not_canceled: Record<string, string>;
}

export interface BalanceAllowance {
  balance: string;
  allowances: Record<string, string>;
}

/** Money moves of the operator and the trader: amounts in base units as decimal strings. */
export interface AccountBalances {
  address: string;
  collateral: { available: string; reserved: string };
  positions: { token_id: string; available: string; reserved: string }[];
}

/** One line of the money-move journal, for the operator. Amounts are decimal strings. */
export interface MoneyMoveRecord {
  id: string;
  kind: 'deposit' | 'withdrawal' | 'split' | 'merge' | 'redeem';
  address: string;
  /** The market of a split, merge or redemption; null for deposits and withdrawals. */
  condition_id: string | null;
  /** Collateral moved; for a redemption, the shares burned (both outcomes). */
  amount: string;
  /** For a redemption: the collateral paid out; otherwise "0". */
  payout: string;
  reference: string | null;
  /** The commit (group of commands) it was journaled in: the `transaction_hash` of that commit's trades. */
  transaction_hash: string;
  created_at: string;
}

/** A deposit, withdrawal, split or merge: the account after it, and whether its reference had been applied before. */
export interface MoneyMoveResult extends AccountBalances {
  reference: string | null;
  replayed: boolean;
}

/** The result of an order that was refused: nothing traded, the reason in `errorMsg` and `code`. */
export function rejectedOrderResult(orderId: string, code: string, errorMsg: string, retryAfterSeconds = 0): OrderResult {
  return {
    success: false,
    errorMsg,
    orderID: orderId,
    takingAmount: '',
    makingAmount: '',
    status: '',
    orderHash: orderId,
    code,
    retry_after_seconds: retryAfterSeconds,
    transactionsHashes: [],
    tradeIDs: [],
  };
}
