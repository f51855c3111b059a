import { Controller } from '@nestjs/common';
import type { CancelMarketRequest, CancelOrdersRequest, PlaceOrdersRequest, RpcRequest } from '@exchange/contracts';
import { RpcRoute } from '@exchange/service-kit';
import { HeartbeatsService } from '../heartbeats/heartbeats.service';
import { OrdersService } from './orders.service';

@Controller()
export class OrdersController {
  constructor(
    private readonly orders: OrdersService,
    private readonly heartbeats: HeartbeatsService,
  ) {}

  @RpcRoute('matching.orders.place.v1')
  place(request: PlaceOrdersRequest) {
    return this.orders.place(request);
  }

  @RpcRoute('matching.orders.cancel.v1')
  cancel(request: CancelOrdersRequest) {
    return this.orders.cancel(request);
  }

  @RpcRoute('matching.orders.cancel-all.v1')
  cancelAll(request: RpcRequest<'matching.orders.cancel-all.v1'>) {
    return this.orders.cancelAll(request.caller);
  }

  @RpcRoute('matching.orders.cancel-market.v1')
  cancelMarket(request: CancelMarketRequest) {
    return this.orders.cancelMarket(request);
  }

  @RpcRoute('matching.heartbeat.v1')
  async heartbeat(request: RpcRequest<'matching.heartbeat.v1'>) {
    return this.heartbeats.beat(request);
  }

  @RpcRoute('matching.heartbeat.end.v1')
  endHeartbeats(request: RpcRequest<'matching.heartbeat.end.v1'>) {
    return this.heartbeats.endWithKey(request);
  }
}
