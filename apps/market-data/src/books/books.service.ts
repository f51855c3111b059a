import { Injectable } from '@nestjs/common';
import {
  formatUnits,
  type HotQuoteFields,
  ok,
  type LastTradePrice,
  type LiveOrderTerms,
  type OrderBookSummary,
  type PriceEntry,
  type Reply,
  type TokenBatchRequest,
} from '@exchange/contracts';
import { isSampling } from '../markets/clob-market.presenter';
import { MarketRegistry, type MarketRecord } from '../markets/market-registry';
import { NOT_READY, UNKNOWN_TOKEN } from '../markets/replies';
import { bookSummary } from './book-summary';
import { MarketBooks, type MarketTape } from './market-books';
import type { L2Book } from './l2-book';
import { isScoring } from './order-scoring';
import { bestAsk, bestBid, lastTradeOf, midpointOf, spreadOf, tokenLevels, toLevels, type Outcome } from './token-view';

interface TokenView {
  tokenId: string;
  market: MarketRecord;
  outcome: Outcome;
  tape: MarketTape;
}

const NO_TRADE: LastTradePrice = { price: '0.5', side: '' };

/**
 * Books and prices of tokens, from the in-memory books: a token's view mirrors the market's YES book
 * for the NO token. A rendered book is kept until its market's book, last trade or settings change.
 */
@Injectable()
export class BooksService {
  /** Keyed by token; a book loaded from order-matching is a new object whose version starts again, hence `book`. */
  private readonly rendered = new Map<string, { book: L2Book; version: number; market: MarketRecord; summary: OrderBookSummary }>();

  constructor(
    private readonly registry: MarketRegistry,
    private readonly books: MarketBooks,
  ) {}

  book(tokenId: string): Reply<OrderBookSummary> {
    return this.each([tokenId], (view) => this.summary(view), (summaries) => summaries[0]!);
  }

  /**
   * One summary per distinct token, in the order of first mention. Decision: a repeated token is answered
   * once, as the other batch reads (maps by token) do: 500 copies of one deep book's token made a 75 MB
   * answer that held market-data for 20 s (found by a scale probe).
   */
  booksOf(items: TokenBatchRequest): Reply<OrderBookSummary[]> {
    return this.each(distinctTokens(items), (view) => this.summary(view), (summaries) => summaries);
  }

  /** BUY: the best bid; SELL: the best ask; "0" when that side is empty. */
  price(tokenId: string, side: 'BUY' | 'SELL'): Reply<{ price: string }> {
    return this.each([tokenId], (view) => this.priceOf(view, side), ([price]) => ({ price: price! }));
  }

  prices(items: TokenBatchRequest): Reply<Record<string, PriceEntry>> {
    return this.each(
      items.map((i) => i.token_id),
      (view): [string, PriceEntry] => [view.tokenId, { BUY: this.priceOf(view, 'BUY'), SELL: this.priceOf(view, 'SELL') }],
      Object.fromEntries,
    );
  }

  midpoint(tokenId: string): Reply<{ mid: string }> {
    return this.each([tokenId], (view) => this.midpointOf(view), ([mid]) => ({ mid: mid! }));
  }

  midpoints(items: TokenBatchRequest): Reply<Record<string, string>> {
    return this.each(items.map((i) => i.token_id), (view): [string, string] => [view.tokenId, this.midpointOf(view)], Object.fromEntries);
  }

  spread(tokenId: string): Reply<{ spread: string }> {
    return this.each([tokenId], (view) => this.spreadOf(view), ([spread]) => ({ spread: spread! }));
  }

  spreads(items: TokenBatchRequest): Reply<Record<string, string>> {
    return this.each(items.map((i) => i.token_id), (view): [string, string] => [view.tokenId, this.spreadOf(view)], Object.fromEntries);
  }

  lastTradePrice(tokenId: string): Reply<LastTradePrice> {
    return this.each([tokenId], (view) => this.lastTradeOf(view), ([last]) => last!);
  }

  /** One entry per distinct token, in the order of first mention, as `booksOf`. */
  lastTradesPrices(items: TokenBatchRequest): Reply<(LastTradePrice & { token_id: string })[]> {
    return this.each(distinctTokens(items), (view) => ({ token_id: view.tokenId, ...this.lastTradeOf(view) }), (all) => all);
  }

  /**
   * Whether each resting order earns liquidity rewards now (`isScoring`), by order id: only in a sampling
   * market (accepting orders, with reward rates set); an order of an unknown token does not.
   */
  scoring(orders: LiveOrderTerms[]): Reply<Record<string, boolean>> {
    if (!this.registry.ready) return NOT_READY;
    const answer: Record<string, boolean> = {};
    for (const order of orders) {
      const token = this.registry.byToken(order.token_id);
      if (token === undefined) {
        answer[order.id] = false;
        continue;
      }
      const tape = this.books.tape(token.market.conditionId);
      const midpoint = midpointOf(tape.book, tape.last, token.outcome);
      answer[order.id] = isSampling(token.market, tape) && isScoring(order, midpoint, token.market.rewards);
    }
    return ok(answer);
  }

  /** The pre-rendered answers of a token's hot reads (Redis quote hash), or undefined when unknown. */
  quote(tokenId: string): HotQuoteFields | undefined {
    const token = this.registry.byToken(tokenId);
    if (!token) return undefined;
    const view = { tokenId, market: token.market, outcome: token.outcome, tape: this.books.tape(token.market.conditionId) };
    return {
      book: JSON.stringify(this.summary(view)),
      BUY: JSON.stringify({ price: this.priceOf(view, 'BUY') }),
      SELL: JSON.stringify({ price: this.priceOf(view, 'SELL') }),
      mid: JSON.stringify({ mid: this.midpointOf(view) }),
    };
  }

  /** Answers for each token, or 404 when any is unknown. */
  private each<T, R>(tokenIds: string[], one: (view: TokenView) => T, all: (values: T[]) => R): Reply<R> {
    if (!this.registry.ready) return NOT_READY;
    const values: T[] = [];
    for (const tokenId of tokenIds) {
      const token = this.registry.byToken(tokenId);
      if (!token) return UNKNOWN_TOKEN;
      values.push(one({ tokenId, market: token.market, outcome: token.outcome, tape: this.books.tape(token.market.conditionId) }));
    }
    return ok(all(values));
  }

  private priceOf(view: TokenView, side: 'BUY' | 'SELL'): string {
    const price = side === 'BUY' ? bestBid(view.tape.book, view.outcome) : bestAsk(view.tape.book, view.outcome);
    return formatUnits(price ?? 0);
  }

  private midpointOf(view: TokenView): string {
    return formatUnits(midpointOf(view.tape.book, view.tape.last, view.outcome));
  }

  private spreadOf(view: TokenView): string {
    return formatUnits(spreadOf(view.tape.book, view.outcome));
  }

  private lastTradeOf(view: TokenView): LastTradePrice {
    const last = lastTradeOf(view.tape.last, view.outcome);
    return last ? { price: formatUnits(last.price), side: last.side } : NO_TRADE;
  }

  private summary(view: TokenView): OrderBookSummary {
    const cached = this.rendered.get(view.tokenId);
    const book = view.tape.book;
    if (cached && cached.book === book && cached.version === book.version && cached.market === view.market) return cached.summary;
    const { bids, asks } = tokenLevels(view.tape.book, view.outcome);
    const s = view.market.snapshot;
    const summary = bookSummary({
      market: view.market.conditionId,
      assetId: view.tokenId,
      timestampMs: view.tape.book.timestamp || Date.parse(s.createdAt),
      bids: toLevels(bids),
      asks: toLevels(asks),
      minOrderSize: formatUnits(s.minOrderSizeUnits),
      tickSize: formatUnits(s.tickSizeUnits),
      negRisk: s.negRisk,
      lastTradePrice: this.lastTradeOf(view).price,
    });
    this.rendered.set(view.tokenId, { book, version: book.version, market: view.market, summary });
    return summary;
  }
}

/** The tokens of a batch request, each once, in the order of first mention. */
function distinctTokens(items: TokenBatchRequest): string[] {
  return [...new Set(items.map((i) => i.token_id))];
}
