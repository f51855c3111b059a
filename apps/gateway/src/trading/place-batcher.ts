import { Injectable } from '@nestjs/common';
import { MAX_ORDERS_PER_MESSAGE, type OrderPlacement, type OrderResult } from '@exchange/contracts';
import { RpcClient } from '@exchange/service-kit';
import { ApiError } from '../http/api-error';

interface Waiting {
  placement: OrderPlacement;
  resolve: (results: OrderResult[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Sends the order placements of one turn of the event loop to the engine in one NATS request (at most
 * MAX_ORDERS_PER_MESSAGE orders each). Under load, a message per placement cost the gateway, NATS and
 * the engine more than the orders themselves; the engine commits a message's placements together
 * anyway. A placement waits for the end of the current turn at most. A request that fails as a whole
 * (the engine not answering) fails each of its placements with that error.
 */
@Injectable()
export class PlaceBatcher {
  private waiting: Waiting[] = [];
  private orders = 0;

  constructor(private readonly rpc: RpcClient) {}

  /** The placement's results, in the order of its orders. Placements are checked by the caller. */
  place(placement: OrderPlacement): Promise<OrderResult[]> {
    if (this.orders + placement.orders.length > MAX_ORDERS_PER_MESSAGE) this.send();
    return new Promise((resolve, reject) => {
      if (this.waiting.length === 0) setImmediate(() => this.send());
      this.waiting.push({ placement, resolve, reject });
      this.orders += placement.orders.length;
    });
  }

  private send(): void {
    const batch = this.waiting;
    if (batch.length === 0) return;
    this.waiting = [];
    this.orders = 0;
    this.rpc.request('matching.orders.place.v1', { placements: batch.map((w) => w.placement) }).then(
      (reply) => {
        if (!reply.ok) return batch.forEach((w) => w.reject(new ApiError(reply)));
        batch.forEach((w, i) => w.resolve(reply.data[i]!));
      },
      (error: unknown) => batch.forEach((w) => w.reject(error)),
    );
  }
}
