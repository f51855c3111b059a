import { Controller } from '@nestjs/common';
import type { BalanceRequest, BookSnapshotsRequest, ListOrdersRequest, ListTradesRequest, RpcRequest, TradeHistoryRequest } from '@exchange/contracts';
import { RpcRoute } from '@exchange/service-kit';
import { ReadModelSources } from './read-model-sources.service';
import { QueriesService } from './queries.service';

@Controller()
export class QueriesController {
  constructor(
    private readonly queries: QueriesService,
    private readonly sources: ReadModelSources,
  ) {}

  @RpcRoute('matching.orders.get.v1')
  order(request: RpcRequest<'matching.orders.get.v1'>) {
    return this.queries.order(request.caller, request.id);
  }

  @RpcRoute('matching.orders.list.v1')
  orders(request: ListOrdersRequest) {
    return this.queries.orders(request);
  }

  @RpcRoute('matching.orders.live.v1')
  async liveOrders(request: RpcRequest<'matching.orders.live.v1'>) {
    return this.queries.liveOrders(request.caller, request.orderIds);
  }

  @RpcRoute('matching.trades.list.v1')
  trades(request: ListTradesRequest) {
    return this.queries.trades(request);
  }

  @RpcRoute('matching.balance.get.v1')
  async balance(request: BalanceRequest) {
    return this.queries.balance(request);
  }

  @RpcRoute('matching.books.snapshots.v1')
  bookSnapshots(request: BookSnapshotsRequest) {
    return this.sources.books(request);
  }

  @RpcRoute('matching.trades.history.v1')
  tradeHistory(request: TradeHistoryRequest) {
    return this.sources.trades(request);
  }
}
