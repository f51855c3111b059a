import { Injectable, Logger } from '@nestjs/common';
import type { BookSnapshotsPage, MarketBookSnapshot } from '@exchange/contracts';
import { RpcClient } from '@exchange/service-kit';

/** The books as order-matching holds them (`matching.books.snapshots.v1`), every page of them. */
@Injectable()
export class EngineBooks {
  private readonly logger = new Logger(EngineBooks.name);

  constructor(private readonly rpc: RpcClient) {}

  async all(): Promise<MarketBookSnapshot[]> {
    const markets: MarketBookSnapshot[] = [];
    let after: string | null = null;
    do {
      const page = await this.page(after);
      markets.push(...page.markets);
      after = page.next;
    } while (after !== null);
    return markets;
  }

  /** Waits for order-matching: without its books there is nothing right to serve. */
  private async page(after: string | null): Promise<BookSnapshotsPage> {
    for (let attempt = 0; ; attempt++) {
      const reply = await this.rpc.request('matching.books.snapshots.v1', after === null ? {} : { after });
      if (reply.ok) return reply.data;
      if (attempt % 10 === 0) this.logger.warn(`order-matching did not give its books (${reply.body.error}); retrying`);
      await new Promise((r) => setTimeout(r, Math.min(5_000, 200 * 2 ** attempt)));
    }
  }
}
