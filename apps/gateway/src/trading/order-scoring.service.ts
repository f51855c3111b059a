import { Injectable } from '@nestjs/common';
import { MAX_SCORING_ORDER_IDS } from '@exchange/contracts';
import type { ApiCaller } from '../auth/api-caller';
import { Forwarder } from '../http/forwarder.service';
import { orderIdList } from './order-id-list';
import { OrdersService } from './orders.service';

/**
 * Upstream's order scoring: whether the caller's orders earn liquidity rewards now (docs/trading.md,
 * "Order scoring"). The engine names which of them are the caller's and rest in a book, with their
 * terms; market-data judges those against the market's rewards and the token's midpoint. Any other id
 * (unknown, ended, another trader's) is not scoring, so the answer tells nothing about others' orders.
 */
@Injectable()
export class OrderScoringService {
  constructor(
    private readonly orders: OrdersService,
    private readonly forwarder: Forwarder,
  ) {}

  /** By the ids as the client sent them. */
  async scoring(caller: ApiCaller, ids: unknown): Promise<Record<string, boolean>> {
    const orderIds = orderIdList(ids, MAX_SCORING_ORDER_IDS);
    const live = await this.orders.forward('matching.orders.live.v1', { caller, orderIds });
    const scored = live.length > 0 ? await this.forwarder.send('marketdata.orders-scoring.v1', { orders: live }) : {};
    return Object.fromEntries(orderIds.map((id) => [id, scored[id.toLowerCase()] ?? false]));
  }
}
