import { Injectable } from '@nestjs/common';
import { EXCHANGE_V2_CONTRACTS } from '@exchange/chain';
import {
  cursorAfterPage,
  encodeCursor,
  END_CURSOR,
  fail,
  ok,
  type BalanceAllowance,
  type BalanceRequest,
  type Caller,
  type ListOrdersRequest,
  type ListTradesRequest,
  type LiveOrderTerms,
  type OpenOrder,
  type Page,
  type Reply,
  type Trade,
  TRADING_PAGE_SIZE,
} from '@exchange/contracts';
import { callerAccounts, fundingAccount } from '../engine/caller-accounts';
import { COLLATERAL } from '../engine/ledger';
import { EngineService } from '../engine-host/engine.service';
import { CALLER_TRADES, MAKER_ROWS_PER_TRADES_PAGE } from './caller-trades-sql';
import { presentOrder, presentTrade, type OrderRow, type TradeRow } from './presenters';

/** Clients check allowances; on this exchange there are none to set, so they read as unlimited. */
const UNLIMITED = (2n ** 256n - 1n).toString();
const EXCHANGES = Object.values(EXCHANGE_V2_CONTRACTS);

/**
 * Reads of orders and trades (committed rows), and balances and resting orders (the engine's memory), of
 * the authenticated caller.
 */
@Injectable()
export class QueriesService {
  constructor(private readonly engine: EngineService) {}

  /** One order by id: the engine knows every order's seq, the key of its row (the table has no index on ids). */
  async order(caller: Caller, id: string): Promise<Reply<OpenOrder>> {
    const notFound = fail('order_not_found', `order ${id} not found`);
    const seq = this.engine.state.seqOf(id.toLowerCase());
    if (seq === undefined) return notFound;
    const rows = await this.engine.pool.query<OrderRow>(
      `SELECT o.*, m.outcomes FROM orders o JOIN markets m USING (condition_id) WHERE o.seq = $1 AND o.id = $2 AND (o.owner = $3 OR o.maker = ANY($4::text[]))`,
      [seq, id.toLowerCase(), caller.apiKey, callerAccounts(this.engine.state, caller)],
    );
    const row = rows.rows[0];
    return row ? ok(presentOrder(row)) : notFound;
  }

  /**
   * Those of the orders that are the caller's and rest in a book now, in the order given (order scoring):
   * from memory, where every resting order is, as its book matches against it. An order a large cancel
   * took off its book is open until its step ends it, but no longer rests (scored until then before a probe).
   */
  liveOrders(caller: Caller, orderIds: string[]): Reply<LiveOrderTerms[]> {
    const state = this.engine.state;
    const accounts = callerAccounts(state, caller);
    const live: LiveOrderTerms[] = [];
    for (const id of orderIds) {
      const order = state.orders.get(id);
      if (order && (order.owner === caller.apiKey || accounts.includes(order.maker)) && state.markets.get(order.conditionId)!.book.order(order.seq)) {
        live.push({ id: order.id, token_id: order.tokenId, price: order.price, remaining: order.size - order.matched });
      }
    }
    return ok(live);
  }

  /** The caller's open orders (status LIVE), oldest first: those its key placed or its accounts made. */
  async orders(request: ListOrdersRequest): Promise<Reply<Page<OpenOrder>>> {
    const offset = request.next_cursor;
    const rows = await this.engine.pool.query<OrderRow>(
      `SELECT o.*, m.outcomes FROM orders o JOIN markets m USING (condition_id)
       WHERE (o.owner = $1 OR o.maker = ANY($2::text[])) AND o.status = 'LIVE'
         AND ($3::text IS NULL OR o.id = $3) AND ($4::text IS NULL OR o.condition_id = $4) AND ($5::text IS NULL OR o.token_id = $5)
       ORDER BY o.seq LIMIT $6 OFFSET $7`,
      [request.caller.apiKey, callerAccounts(this.engine.state, request.caller), request.id?.toLowerCase() ?? null, request.market?.toLowerCase() ?? null, request.asset_id ?? null, TRADING_PAGE_SIZE, offset],
    );
    const data = rows.rows.map(presentOrder);
    return ok({ data, next_cursor: cursorAfterPage(offset, data.length, TRADING_PAGE_SIZE), limit: TRADING_PAGE_SIZE, count: data.length });
  }

  /** Trades in which the caller's accounts took part, as taker or maker; newest first (caller-trades-sql.ts). */
  async trades(request: ListTradesRequest): Promise<Reply<Page<Trade>>> {
    const offset = request.next_cursor;
    const accounts = callerAccounts(this.engine.state, request.caller);
    // Upstream's `maker_address` names whose trades to list (clients send their own address), as taker or
    // maker: one of the caller's accounts, or nothing to list. It was read as `maker`, the counterparty
    // filter, which hid the caller's taker trades (found by a probe with the stock client).
    const whose = request.maker_address?.toLowerCase();
    if (whose !== undefined && !accounts.includes(whose)) return ok({ data: [], next_cursor: END_CURSOR, limit: TRADING_PAGE_SIZE, count: 0 });
    const walked = whose === undefined ? accounts : [whose];
    const rows = await this.engine.pool.query<TradeRow & { fetched: number }>(CALLER_TRADES, [
      walked[0],
      request.id ?? null,
      request.taker?.toLowerCase() ?? null,
      request.maker?.toLowerCase() ?? null,
      request.market?.toLowerCase() ?? null,
      request.asset_id ?? null,
      request.before ?? null,
      request.after ?? null,
      TRADING_PAGE_SIZE,
      offset,
      walked[1] ?? null,
      MAKER_ROWS_PER_TRADES_PAGE,
    ]);
    const data = rows.rows.map((row) => presentTrade(row, accounts));
    // A page cut for its makers goes on where it was cut, however few trades it holds.
    const cut = data.length > 0 && rows.rows[0]!.fetched > data.length;
    const next_cursor = cut ? encodeCursor(offset + data.length) : cursorAfterPage(offset, data.length, TRADING_PAGE_SIZE);
    return ok({ data, next_cursor, limit: TRADING_PAGE_SIZE, count: data.length });
  }

  /**
   * The account's whole balance in base units (6 decimals), what its open orders hold included, as
   * upstream's `balance` (the wallet's on-chain balance, from which its clients subtract their open orders
   * themselves), of the account `signature_type` names.
   */
  balance(request: BalanceRequest): Reply<BalanceAllowance> {
    const asset = request.asset_type === 'COLLATERAL' ? COLLATERAL : request.token_id!;
    if (asset !== COLLATERAL && !this.engine.state.tokens.has(asset)) return fail('market_not_found', `unknown token ${asset}`);
    const account = fundingAccount(this.engine.state, request.caller, request.signature_type);
    if (!account.ok) return account;
    const balance = this.engine.state.ledger.get(account.data, asset);
    return ok({ balance: String(balance.available + balance.reserved), allowances: Object.fromEntries(EXCHANGES.map((e) => [e, UNLIMITED])) });
  }
}
