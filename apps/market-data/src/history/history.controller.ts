import { Controller } from '@nestjs/common';
import { RpcRoute } from '@exchange/service-kit';
import type { RpcRequest } from '@exchange/contracts';
import { HistoryService } from './history.service';

@Controller()
export class HistoryController {
  constructor(private readonly history: HistoryService) {}

  @RpcRoute('marketdata.prices-history.v1')
  pricesHistory(request: RpcRequest<'marketdata.prices-history.v1'>) {
    return this.history.history(request);
  }

  @RpcRoute('marketdata.batch-prices-history.v1')
  batch(request: RpcRequest<'marketdata.batch-prices-history.v1'>) {
    return this.history.batch(request);
  }
}
