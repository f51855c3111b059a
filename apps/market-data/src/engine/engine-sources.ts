import { Injectable, Logger } from '@nestjs/common';
import type { BookSnapshotsPage, MarketBookSnapshot, RpcRequestInput, RpcResponse, TradeHistoryPage } from '@exchange/contracts';
import { backoff, RpcClient } from '@exchange/service-kit';

type SourceSubject = 'matching.books.snapshots.v1' | 'matching.trades.history.v1';

/**
 * What order-matching answers a replica whose position in the MATCHING stream is gone: its books and
 * its trades (docs/market-data.md, "Start-up"). Without order-matching there is nothing right to serve,
 * so each request waits for it, retrying, until `stopped` says to give up (shutdown).
 */
@Injectable()
export class EngineSources {
  private readonly logger = new Logger(EngineSources.name);

  constructor(private readonly rpc: RpcClient) {}

  /** Every market's book, all pages; undefined once stopped. */
  async books(stopped: () => boolean): Promise<MarketBookSnapshot[] | undefined> {
    const markets: MarketBookSnapshot[] = [];
    let after: string | null = null;
    do {
      const page: BookSnapshotsPage | undefined = await this.ask('matching.books.snapshots.v1', after === null ? {} : { after }, stopped);
      if (!page) return undefined;
      markets.push(...page.markets);
      after = page.next;
    } while (after !== null);
    return markets;
  }

  /** The page of trades after `after` (null: the first); undefined once stopped. */
  trades(after: string | null, stopped: () => boolean): Promise<TradeHistoryPage | undefined> {
    return this.ask('matching.trades.history.v1', after === null ? {} : { after }, stopped);
  }

  private async ask<S extends SourceSubject>(subject: S, payload: RpcRequestInput<S>, stopped: () => boolean): Promise<RpcResponse<S> | undefined> {
    for (let attempt = 0; !stopped(); attempt++) {
      const reply = await this.rpc.request(subject, payload);
      if (reply.ok) return reply.data;
      if (attempt % 10 === 0) this.logger.warn(`order-matching did not answer ${subject} (${reply.body.error}); retrying`);
      await backoff(attempt, 200);
    }
    return undefined;
  }
}
