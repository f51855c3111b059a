import { Injectable } from '@nestjs/common';
import { ok, type CancelMarketRequest, type CancelOrdersRequest, type CancelResult, type Caller, type OrderResult, type PlaceOrdersRequest, type Reply } from '@exchange/contracts';
import { placeOrder } from '../engine/place-order';
import { EngineService } from '../engine-host/engine.service';
import { SteppedCancels } from '../engine-host/stepped-cancels';

@Injectable()
export class OrdersService {
  constructor(
    private readonly engine: EngineService,
    private readonly cancels: SteppedCancels,
  ) {}

  /**
   * Each order gets its own result, one list per placement; one failure leaves the others unaffected.
   * The placements of one message are one command: they commit together.
   */
  async place(request: PlaceOrdersRequest): Promise<Reply<OrderResult[][]>> {
    const { value, batchId } = await this.engine.run((state, now) =>
      request.placements.map(({ caller, orders }) => orders.map((order) => placeOrder(state, caller, order, now))),
    );
    for (const result of value.flat()) if (result.tradeIDs.length) result.transactionsHashes = [batchId];
    return ok(value);
  }

  async cancel(request: CancelOrdersRequest): Promise<Reply<CancelResult>> {
    return ok(await this.cancels.byIds(request.caller, request.orderIds));
  }

  async cancelAll(caller: Caller): Promise<Reply<CancelResult>> {
    return ok(await this.cancels.where(caller, () => true));
  }

  async cancelMarket(request: CancelMarketRequest): Promise<Reply<CancelResult>> {
    const market = request.market?.toLowerCase();
    const keep = (order: { conditionId: string; tokenId: string }) =>
      (market === undefined || order.conditionId === market) && (request.asset_id === undefined || order.tokenId === request.asset_id);
    return ok(await this.cancels.where(request.caller, keep));
  }
}
