import { Controller } from '@nestjs/common';
import { MARKET_ACTIVITY_PAGE, ok, type MarketActivityPage, type Reply, type RpcRequest } from '@exchange/contracts';
import { RpcRoute } from '@exchange/service-kit';
import { MarketBooks } from '../books/market-books';
import { PriceHistoryRepository } from '../history/price-history.repository';
import { MarketRegistry } from '../markets/market-registry';
import { NOT_READY } from '../markets/replies';
import { bookValue } from './activity-measures';

/**
 * Each market's volume and liquidity (docs/market-data.md, "Activity"), for the catalog, a page of
 * markets at a time in the catalog's id order. Volumes come from the database, which every replica
 * adds to once per trade; liquidity from this replica's books.
 */
@Controller()
export class ActivityController {
  constructor(
    private readonly registry: MarketRegistry,
    private readonly books: MarketBooks,
    private readonly history: PriceHistoryRepository,
  ) {}

  @RpcRoute('marketdata.activity.v1')
  async activity(request: RpcRequest<'marketdata.activity.v1'>): Promise<Reply<MarketActivityPage>> {
    if (!this.registry.ready) return NOT_READY;
    const after = request.after ?? 0;
    const page = this.registry
      .list()
      .filter((market) => market.snapshot.id > after)
      .slice(0, MARKET_ACTIVITY_PAGE);
    const volumes = await this.history.volumes(page.map((market) => market.conditionId));
    const markets = page.map(({ snapshot, conditionId }) => {
      const tape = this.books.peek(conditionId);
      return {
        id: snapshot.id,
        conditionId,
        volume: String(volumes.get(conditionId) ?? 0n),
        liquidity: String(tape ? bookValue(tape.book) : 0n),
      };
    });
    return ok({ markets, next: page.length === MARKET_ACTIVITY_PAGE ? page[page.length - 1]!.snapshot.id : null });
  }
}
