import { Injectable } from '@nestjs/common';
import {
  cursorAfter,
  ok,
  unitsAsNumber,
  type ClobMarket,
  type ClobMarketInfo,
  type FeeRate,
  type FeeRateRequest,
  type ListClobMarketsRequest,
  type MarketByToken,
  type Page,
  type Reply,
  type SamplingMarket,
  type SimplifiedMarket,
} from '@exchange/contracts';
import { MarketBooks } from '../books/market-books';
import {
  DEFAULT_FEE_SCHEDULE,
  feeRateOf,
  isSampling,
  presentClobMarket,
  presentMarketInfo,
  presentSamplingMarket,
  presentSimplifiedMarket,
} from './clob-market.presenter';
import { MarketRegistry, type MarketRecord } from './market-registry';
import { NOT_READY, UNKNOWN_MARKET } from './replies';

/** CLOB market settings, from memory: the lists, one market, its abbreviated info, per-token lookups. */
@Injectable()
export class MarketsService {
  constructor(
    private readonly registry: MarketRegistry,
    private readonly books: MarketBooks,
  ) {}

  list(request: ListClobMarketsRequest): Reply<Page<ClobMarket>> {
    if (!this.registry.ready) return NOT_READY;
    return ok(this.page(this.registry.list(), request, (r) => presentClobMarket(r, this.books.peek(r.conditionId))));
  }

  sampling(request: ListClobMarketsRequest): Reply<Page<SamplingMarket>> {
    if (!this.registry.ready) return NOT_READY;
    return ok(this.page(this.sampled(), request, (r) => presentSamplingMarket(r, this.books.peek(r.conditionId))));
  }

  /** Upstream's simplified lists: every market, or the sampling ones, in the simplified form. */
  simplified(request: ListClobMarketsRequest, samplingOnly: boolean): Reply<Page<SimplifiedMarket>> {
    if (!this.registry.ready) return NOT_READY;
    const listed = samplingOnly ? this.sampled() : this.registry.list();
    return ok(this.page(listed, request, (r) => presentSimplifiedMarket(r, this.books.peek(r.conditionId))));
  }

  /** The sampling markets: those accepting orders with rewards set. */
  private sampled(): MarketRecord[] {
    return this.registry.list().filter((r) => isSampling(r, this.books.peek(r.conditionId)));
  }

  get(conditionId: string): Reply<ClobMarket> {
    return this.withMarket(conditionId, (record) => presentClobMarket(record, this.books.peek(record.conditionId)));
  }

  info(conditionId: string): Reply<ClobMarketInfo> {
    return this.withMarket(conditionId, (record) => presentMarketInfo(record, this.books.peek(record.conditionId)));
  }

  byToken(tokenId: string): Reply<MarketByToken> {
    return this.withToken(tokenId, (record) => ({
      condition_id: record.conditionId,
      primary_token_id: record.snapshot.tokenIds[0],
      secondary_token_id: record.snapshot.tokenIds[1],
    }));
  }

  feeRate(request: FeeRateRequest): Reply<FeeRate> {
    if (request.token_id === undefined) return ok(feeRateOf(DEFAULT_FEE_SCHEDULE, ''));
    return this.withToken(request.token_id, (record) => feeRateOf(record.snapshot.feeSchedule, record.snapshot.category));
  }

  tickSize(tokenId: string): Reply<{ minimum_tick_size: number }> {
    return this.withToken(tokenId, (record) => ({ minimum_tick_size: unitsAsNumber(record.snapshot.tickSizeUnits) }));
  }

  negRisk(tokenId: string): Reply<{ neg_risk: boolean }> {
    return this.withToken(tokenId, (record) => ({ neg_risk: record.snapshot.negRisk }));
  }

  private page<T>(records: readonly MarketRecord[], request: ListClobMarketsRequest, present: (r: MarketRecord) => T): Page<T> {
    const slice = records.slice(request.next_cursor, request.next_cursor + request.limit);
    return {
      data: slice.map(present),
      next_cursor: cursorAfter(request.next_cursor, slice.length, records.length),
      limit: request.limit,
      count: slice.length,
    };
  }

  private withMarket<T>(conditionId: string, answer: (record: MarketRecord) => T): Reply<T> {
    if (!this.registry.ready) return NOT_READY;
    const record = this.registry.get(conditionId);
    return record ? ok(answer(record)) : UNKNOWN_MARKET;
  }

  private withToken<T>(tokenId: string, answer: (record: MarketRecord) => T): Reply<T> {
    if (!this.registry.ready) return NOT_READY;
    const token = this.registry.byToken(tokenId);
    return token ? ok(answer(token.market)) : UNKNOWN_MARKET;
  }
}
