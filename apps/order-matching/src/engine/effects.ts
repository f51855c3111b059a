import type { MatchingEvent } from '@exchange/contracts';
import type { BalanceRow } from './ledger';
import type { MarketState, OrderState, TradeRecord } from './model';

export type MoneyMoveKind = 'deposit' | 'withdrawal' | 'split' | 'merge' | 'redeem';

/** An operator or trader money move, kept as a journal line for audits. */
export interface MoneyMove {
  kind: MoneyMoveKind;
  address: string;
  conditionId: string;
  amount: number;
  /** For redemptions: the collateral paid out. */
  payout: number;
  /** The reference the operator (deposit, withdrawal) or the trader (split, merge) gave it, if any. */
  reference?: string;
}

/** Everything one batch of commands changed, for one transaction. */
export class Effects {
  readonly orders = new Map<string, OrderState>();
  readonly trades: TradeRecord[] = [];
  readonly moves: MoneyMove[] = [];
  readonly events: MatchingEvent[] = [];
  readonly markets = new Set<MarketState>();
  balances: BalanceRow[] = [];

  get empty(): boolean {
    return (
      this.orders.size === 0 &&
      this.trades.length === 0 &&
      this.moves.length === 0 &&
      this.events.length === 0 &&
      this.markets.size === 0 &&
      this.balances.length === 0
    );
  }
}
