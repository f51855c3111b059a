import { Controller } from '@nestjs/common';
import { RpcRoute } from '@exchange/service-kit';
import type { GetMarketRequest } from '@exchange/contracts';
import { MarketQueriesService } from './market-queries.service';

@Controller()
export class MarketsController {
  constructor(private readonly markets: MarketQueriesService) {}

  @RpcRoute('catalog.markets.get.v1')
  get(request: GetMarketRequest) {
    return this.markets.get(request);
  }
}
