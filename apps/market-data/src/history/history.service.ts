import { Injectable } from '@nestjs/common';
import {
  ok,
  type BatchPricesHistoryRequest,
  type HistoryInterval,
  type HistoryPoint,
  type PricesHistoryRequest,
  type Reply,
  UNIT,
} from '@exchange/contracts';
import { mirrored, type Outcome } from '../books/token-view';
import { MarketRegistry } from '../markets/market-registry';
import { NOT_READY, UNKNOWN_TOKEN } from '../markets/replies';
import { carryForward, historyGrid, INTERVAL_SECONDS } from './history-grid';
import { PriceHistoryRepository } from './price-history.repository';

interface Range {
  interval?: HistoryInterval;
  start?: number;
  end?: number;
  fidelity: number;
}

/** `/prices-history`: the only reads that query the database (docs/market-data.md). */
@Injectable()
export class HistoryService {
  constructor(
    private readonly registry: MarketRegistry,
    private readonly prices: PriceHistoryRepository,
  ) {}

  async history(request: PricesHistoryRequest): Promise<Reply<{ history: HistoryPoint[] }>> {
    if (!this.registry.ready) return NOT_READY;
    const token = this.registry.byToken(request.market);
    if (!token) return UNKNOWN_TOKEN;
    const range = { interval: request.interval, start: request.startTs, end: request.endTs, fidelity: request.fidelity };
    return ok({ history: await this.points(token.market.conditionId, token.outcome, range) });
  }

  async batch(request: BatchPricesHistoryRequest): Promise<Reply<{ history: Record<string, HistoryPoint[]> }>> {
    if (!this.registry.ready) return NOT_READY;
    const tokens = request.markets.map((tokenId) => ({ tokenId, token: this.registry.byToken(tokenId) }));
    if (tokens.some((t) => !t.token)) return UNKNOWN_TOKEN;
    const range = { interval: request.interval, start: request.start_ts, end: request.end_ts, fidelity: request.fidelity };
    const history: Record<string, HistoryPoint[]> = {};
    for (const { tokenId, token } of tokens) history[tokenId] = await this.points(token!.market.conditionId, token!.outcome, range);
    return ok({ history });
  }

  private async points(conditionId: string, outcome: Outcome, range: Range): Promise<HistoryPoint[]> {
    // A range reaching past now ends now: no price is known for a second still to come.
    const now = Math.floor(Date.now() / 1000);
    const end = Math.min(range.end ?? now, now);
    let start = range.start;
    if (start === undefined) {
      if (range.interval === 'max' || range.interval === 'all') {
        const first = await this.prices.firstTradeMs(conditionId);
        if (first === undefined) return [];
        start = Math.floor(first / 1000);
      } else {
        start = end - INTERVAL_SECONDS[range.interval!];
      }
    }
    const step = range.fidelity * 60;
    const grid = historyGrid(start, end, step);
    if (grid.length === 0) return [];
    // A trade counts for a point when its second is at or before the point's.
    const fromMs = (grid[0]! + 1) * 1000;
    const prior = await this.prices.lastPriceBefore(conditionId, fromMs);
    const buckets = await this.prices.lastPricePerBucket(conditionId, fromMs, (end + 1) * 1000, step * 1000);
    const byPoint = new Map<number, number>();
    for (const [bucket, price] of buckets) byPoint.set(Math.min(bucket + 1, grid.length - 1), price);
    return carryForward(grid, prior, byPoint).map(({ t, price }) => ({ t, p: (outcome === 0 ? price : mirrored(price)) / UNIT }));
  }
}
