import type { OpenOrderStatus, OrderType } from '@exchange/contracts';
import type { OrderBook } from '../core';
import type { FeeSchedule } from './fees';

/** One binary market as the engine sees it: settings from the catalog plus its book. */
export interface MarketState {
  conditionId: string;
  /** Outcome 0 (Yes) first. */
  tokenIds: [string, string];
  outcomes: [string, string];
  tickSize: number;
  minOrderSize: number;
  negRisk: boolean;
  /** The neg-risk event's id ('' when not neg-risk): its markets' outcomes exclude each other. */
  negRiskMarketId: string;
  fee: FeeSchedule;
  acceptingOrders: boolean;
  /** -1 while unresolved; otherwise the winning outcome index. */
  winningOutcome: -1 | 0 | 1;
  book: OrderBook;
}

export interface OrderState {
  id: string;
  /** Time priority and the id of the order inside the book. */
  seq: number;
  owner: string;
  maker: string;
  signer: string;
  conditionId: string;
  tokenId: string;
  outcome: 0 | 1;
  side: 'BUY' | 'SELL';
  /** Own-token limit price in base units (a cap for FOK/FAK). */
  price: number;
  /** Shares in base units. */
  size: number;
  matched: number;
  status: OpenOrderStatus;
  orderType: OrderType;
  postOnly: boolean;
  /** Unix seconds; 0 when none. */
  expiration: number;
  createdAt: number;
  /** What the order still holds reserved: collateral for BUY, its token for SELL. */
  reservedAsset: string;
  reserved: number;
  /**
   * A marketable BUY only: what its fills still to come cost, known when it is placed (`walkBudget`);
   * its fee cap keeps that much reserved instead of the rest's cost at its cap price.
   */
  costLeft?: number;
  tradeIds: string[];
  /**
   * Whether a committed batch holds the order's row: its next change is an update, not an insert (set by
   * the journal after the commit; true for orders loaded at start).
   */
  journaled: boolean;
}

export interface MakerFill {
  orderId: string;
  maker: string;
  owner: string;
  tokenId: string;
  outcome: 0 | 1;
  side: 'BUY' | 'SELL';
  shares: number;
  /** Maker's own-token price. */
  price: number;
  fee: number;
  rebate: number;
}

/** One taker order's match in one command, with the maker orders it met. */
export interface TradeRecord {
  id: string;
  conditionId: string;
  takerOrderId: string;
  taker: string;
  takerOwner: string;
  tokenId: string;
  outcome: 0 | 1;
  side: 'BUY' | 'SELL';
  shares: number;
  /** Collateral the taker paid (BUY) or received (SELL), before its fee. */
  collateral: number;
  fee: number;
  feeRateBps: number;
  /** The rate its makers paid: 0 on a taker-only schedule. */
  makerFeeRateBps: number;
  matchTime: number;
  makers: MakerFill[];
}

export const isOpen = (order: OrderState) => order.status === 'LIVE';
