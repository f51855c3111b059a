import { z } from 'zod';
import {
  createEventRequest,
  createSiteRequest,
  getImportRequest,
  importRequest,
  patchEventRequest,
  patchMarketRequest,
} from './catalog/admin';
import { getEventRequest, getMarketRequest, listEventsRequest, listTagsRequest, publicSearchRequest } from './catalog/queries';
import {
  batchPricesHistoryRequest,
  priceRequest,
  pricesHistoryRequest,
  tokenBatchRequest,
  type HistoryPoint,
  type LastTradePrice,
  type OrderBookSummary,
  type PriceEntry,
} from './clob/books';
import {
  feeRateRequest,
  getClobMarketRequest,
  listClobMarketsRequest,
  setRewardsRequest,
  tokenRequest,
  type ClobMarket,
  type ClobMarketInfo,
  type FeeRate,
  type MarketByToken,
  type Rewards,
  type SamplingMarket,
  type SimplifiedMarket,
} from './clob/markets';
import { marketActivityRequest, type MarketActivityPage } from './clob/market-activity';
import {
  accountRequest,
  balanceRequest,
  bindWalletRequest,
  callerRequest,
  cancelMarketRequest,
  cancelOrdersRequest,
  getOrderRequest,
  heartbeatRequest,
  listOrdersRequest,
  listTradesRequest,
  moneyMoveRequest,
  moneyMovesRequest,
  placeOrdersRequest,
  postOnlyModeRequest,
  redeemRequest,
  resolveRequest,
  splitMergeRequest,
  type WalletBinding,
} from './trading/requests';
import { liveOrdersRequest, ordersScoringRequest, type LiveOrderTerms } from './trading/order-scoring';
import { bookSnapshotsRequest, tradeHistoryRequest, type BookSnapshotsPage, type TradeHistoryPage } from './trading/read-model-sources';
import type { AccountBalances, BalanceAllowance, CancelResult, MoneyMoveRecord, MoneyMoveResult, OpenOrder, OrderResult, Page, Trade } from './trading/resources';
import type {
  CatalogEvent,
  CatalogEventListItem,
  CatalogMarket,
  ImportReport,
  PublicSearchResult,
  Site,
  Tag,
} from './catalog/resources';

const empty = z.object({}).strict();

/** The operator's conservation check of the ledger (base units as decimal strings). */
export interface LedgerAudit {
  deposits: string;
  withdrawals: string;
  collateral: string;
  backing: string;
  unbalancedMarkets: string[];
  balanced: boolean;
}

/**
 * Every NATS request/reply subject with its request schema and response type. Subjects carry their
 * version; a change of shape gets a new subject, so old and new services can run side by side.
 */
export const rpcContract = {
  'catalog.events.list.v1': { request: listEventsRequest, response: {} as CatalogEventListItem[] },
  'catalog.events.get.v1': { request: getEventRequest, response: {} as CatalogEvent },
  'catalog.markets.get.v1': { request: getMarketRequest, response: {} as CatalogMarket },
  'catalog.tags.list.v1': { request: listTagsRequest, response: {} as Tag[] },
  'catalog.search.v1': { request: publicSearchRequest, response: {} as PublicSearchResult },
  'catalog.admin.events.create.v1': { request: createEventRequest, response: {} as CatalogEvent },
  'catalog.admin.events.patch.v1': { request: patchEventRequest, response: {} as CatalogEvent },
  'catalog.admin.markets.patch.v1': { request: patchMarketRequest, response: {} as CatalogMarket },
  'catalog.admin.import.v1': { request: importRequest, response: {} as ImportReport },
  'catalog.admin.imports.get.v1': { request: getImportRequest, response: {} as ImportReport },
  'catalog.admin.sites.create.v1': { request: createSiteRequest, response: {} as Site },
  'catalog.admin.sites.list.v1': { request: empty, response: {} as Site[] },
  'marketdata.markets.get.v1': { request: getClobMarketRequest, response: {} as ClobMarket },
  'marketdata.markets.list.v1': { request: listClobMarketsRequest, response: {} as Page<ClobMarket> },
  'marketdata.sampling-markets.list.v1': { request: listClobMarketsRequest, response: {} as Page<SamplingMarket> },
  'marketdata.simplified-markets.list.v1': { request: listClobMarketsRequest, response: {} as Page<SimplifiedMarket> },
  'marketdata.sampling-simplified-markets.list.v1': { request: listClobMarketsRequest, response: {} as Page<SimplifiedMarket> },
  'marketdata.clob-market.get.v1': { request: getClobMarketRequest, response: {} as ClobMarketInfo },
  'marketdata.markets-by-token.v1': { request: tokenRequest, response: {} as MarketByToken },
  'marketdata.fee-rate.v1': { request: feeRateRequest, response: {} as FeeRate },
  'marketdata.tick-size.v1': { request: tokenRequest, response: {} as { minimum_tick_size: number } },
  'marketdata.neg-risk.v1': { request: tokenRequest, response: {} as { neg_risk: boolean } },
  'marketdata.book.v1': { request: tokenRequest, response: {} as OrderBookSummary },
  'marketdata.books.v1': { request: tokenBatchRequest, response: {} as OrderBookSummary[] },
  'marketdata.price.v1': { request: priceRequest, response: {} as { price: string } },
  'marketdata.prices.v1': { request: tokenBatchRequest, response: {} as Record<string, PriceEntry> },
  'marketdata.midpoint.v1': { request: tokenRequest, response: {} as { mid: string } },
  'marketdata.midpoints.v1': { request: tokenBatchRequest, response: {} as Record<string, string> },
  'marketdata.spread.v1': { request: tokenRequest, response: {} as { spread: string } },
  'marketdata.spreads.v1': { request: tokenBatchRequest, response: {} as Record<string, string> },
  'marketdata.last-trade-price.v1': { request: tokenRequest, response: {} as LastTradePrice },
  'marketdata.last-trades-prices.v1': { request: tokenBatchRequest, response: {} as (LastTradePrice & { token_id: string })[] },
  'marketdata.prices-history.v1': { request: pricesHistoryRequest, response: {} as { history: HistoryPoint[] } },
  'marketdata.batch-prices-history.v1': {
    request: batchPricesHistoryRequest,
    response: {} as { history: Record<string, HistoryPoint[]> },
  },
  'marketdata.activity.v1': { request: marketActivityRequest, response: {} as MarketActivityPage },
  'marketdata.admin.rewards.set.v1': { request: setRewardsRequest, response: {} as { condition_id: string; rewards: Rewards } },
  'marketdata.orders-scoring.v1': { request: ordersScoringRequest, response: {} as Record<string, boolean> },
  'matching.orders.place.v1': { request: placeOrdersRequest, response: {} as OrderResult[][] },
  'matching.orders.cancel.v1': { request: cancelOrdersRequest, response: {} as CancelResult },
  'matching.orders.cancel-all.v1': { request: callerRequest, response: {} as CancelResult },
  'matching.orders.cancel-market.v1': { request: cancelMarketRequest, response: {} as CancelResult },
  'matching.orders.get.v1': { request: getOrderRequest, response: {} as OpenOrder },
  'matching.orders.list.v1': { request: listOrdersRequest, response: {} as Page<OpenOrder> },
  'matching.orders.live.v1': { request: liveOrdersRequest, response: {} as LiveOrderTerms[] },
  'matching.trades.list.v1': { request: listTradesRequest, response: {} as Page<Trade> },
  'matching.balance.get.v1': { request: balanceRequest, response: {} as BalanceAllowance },
  'matching.books.snapshots.v1': { request: bookSnapshotsRequest, response: {} as BookSnapshotsPage },
  'matching.trades.history.v1': { request: tradeHistoryRequest, response: {} as TradeHistoryPage },
  'matching.heartbeat.v1': { request: heartbeatRequest, response: {} as { heartbeat_id: string } },
  'matching.heartbeat.end.v1': { request: callerRequest, response: {} as { ended: boolean } },
  'matching.split.v1': { request: splitMergeRequest, response: {} as MoneyMoveResult },
  'matching.merge.v1': { request: splitMergeRequest, response: {} as MoneyMoveResult },
  'matching.redeem.v1': { request: redeemRequest, response: {} as AccountBalances },
  'matching.admin.deposit.v1': { request: moneyMoveRequest, response: {} as MoneyMoveResult },
  'matching.admin.withdraw.v1': { request: moneyMoveRequest, response: {} as MoneyMoveResult },
  'matching.admin.resolve.v1': { request: resolveRequest, response: {} as { conditionId: string; winningOutcome: number; canceled: number } },
  'matching.admin.post-only.v1': { request: postOnlyModeRequest, response: {} as { enabled: boolean; until: string | null } },
  'matching.admin.audit.v1': { request: empty, response: {} as LedgerAudit },
  'matching.admin.account.v1': { request: accountRequest, response: {} as AccountBalances },
  'matching.admin.wallet.bind.v1': { request: bindWalletRequest, response: {} as WalletBinding },
  'matching.admin.wallet.get.v1': { request: accountRequest, response: {} as WalletBinding },
  'matching.admin.money-moves.v1': { request: moneyMovesRequest, response: {} as MoneyMoveRecord[] },
} as const;

export type RpcSubject = keyof typeof rpcContract;

/**
 * The subjects that change nothing. A request to one that goes unanswered can be sent again as it is;
 * any other subject's may have been carried out (the RPC client's timeout answer says which). A subject
 * missing here is only told to check before retrying, so the list names reads, not writes.
 */
export const READ_ONLY_SUBJECTS: ReadonlySet<RpcSubject> = new Set<RpcSubject>([
  'catalog.events.list.v1',
  'catalog.events.get.v1',
  'catalog.markets.get.v1',
  'catalog.tags.list.v1',
  'catalog.search.v1',
  'catalog.admin.imports.get.v1',
  'catalog.admin.sites.list.v1',
  'marketdata.markets.get.v1',
  'marketdata.markets.list.v1',
  'marketdata.sampling-markets.list.v1',
  'marketdata.simplified-markets.list.v1',
  'marketdata.sampling-simplified-markets.list.v1',
  'marketdata.clob-market.get.v1',
  'marketdata.markets-by-token.v1',
  'marketdata.fee-rate.v1',
  'marketdata.tick-size.v1',
  'marketdata.neg-risk.v1',
  'marketdata.book.v1',
  'marketdata.books.v1',
  'marketdata.price.v1',
  'marketdata.prices.v1',
  'marketdata.midpoint.v1',
  'marketdata.midpoints.v1',
  'marketdata.spread.v1',
  'marketdata.spreads.v1',
  'marketdata.last-trade-price.v1',
  'marketdata.last-trades-prices.v1',
  'marketdata.prices-history.v1',
  'marketdata.batch-prices-history.v1',
  'marketdata.activity.v1',
  'marketdata.orders-scoring.v1',
  'matching.orders.get.v1',
  'matching.orders.list.v1',
  'matching.orders.live.v1',
  'matching.trades.list.v1',
  'matching.balance.get.v1',
  'matching.books.snapshots.v1',
  'matching.trades.history.v1',
  'matching.admin.audit.v1',
  'matching.admin.account.v1',
  'matching.admin.wallet.get.v1',
  'matching.admin.money-moves.v1',
]);
/** What a caller may send: the schema's input (strings from a query string are accepted). */
export type RpcRequestInput<S extends RpcSubject> = z.input<(typeof rpcContract)[S]['request']>;
/** What a handler receives after validation. */
export type RpcRequest<S extends RpcSubject> = z.output<(typeof rpcContract)[S]['request']>;
export type RpcResponse<S extends RpcSubject> = (typeof rpcContract)[S]['response'];

/** NATS headers every request carries. */
export const RPC_HEADERS = { requestId: 'x-request-id', schemaVersion: 'x-schema-version' } as const;
