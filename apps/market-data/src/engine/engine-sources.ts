import { Injectable, Logger } from '@nestjs/common';
import type { BookSnapshotsPage, MarketBookSnapshot, RpcRequestInput, RpcResponse, TradeHistoryPage } from '@exchange/contracts';
import { requestUntilAnswered, RpcClient } from '@exchange/service-kit';

type SourceSubject = 'matching.books.snapshots.v1' | 'matching.trades.history.v1';

/**
 * What order-matching answers a replica whose position in the MATCHING stream is gone: its books and
 * its trades (docs/market-data.md, "Start-up"). Without order-matching there is nothing right to serve,
 * so each request waits for it, retrying, until the caller's `stop` aborts (its shutdown).
 */
@Injectable()
export class EngineSources {
  private readonly logger = new Logger(EngineSources.name);

  constructor(private readonly rpc: RpcClient) {}

  /** Every market's book, all pages; undefined once stopped. */
  async books(stop: AbortSignal): Promise<MarketBookSnapshot[] | undefined> {
    const markets: MarketBookSnapshot[] = [];
    let after: string | null = null;
    do {
      const page: BookSnapshotsPage | undefined = await this.ask('matching.books.snapshots.v1', after === null ? {} : { after }, stop);
      if (!page) return undefined;
      markets.push(...page.markets);
      after = page.next;
    } while (after !== null);
    return markets;
  }

  /** The page of trades after `after` (null: the first); undefined once stopped. */
  trades(after: string | null, stop: AbortSignal): Promise<TradeHistoryPage | undefined> {
    return this.ask('matching.trades.history.v1', after === null ? {} : { after }, stop);
  }

  private ask<S extends SourceSubject>(subject: S, payload: RpcRequestInput<S>, stop: AbortSignal): Promise<RpcResponse<S> | undefined> {
    return requestUntilAnswered(this.rpc, subject, payload, stop, this.logger);
  }
}
