import { Injectable } from '@nestjs/common';
import { MAX_BATCH_ORDERS, MAX_CANCEL_IDS, type OrderResult, type RpcResponse, type RpcSubject } from '@exchange/contracts';
import { answeredByNobody, mayHaveActed } from '@exchange/service-kit';
import type { ApiCaller } from '../auth/api-caller';
import { ApiError } from '../http/api-error';
import { Forwarder } from '../http/forwarder.service';
import type { LaneAnswer } from '../http/lane';
import { orderIdList } from './order-id-list';
import { OrderVerifier } from './order-verifier.service';
import { PlaceBatcher } from './place-batcher';

/** A rejected single order answers with the order result and the error body in one object. */
type RejectedOrder = OrderResult & { error: string };

@Injectable()
export class OrdersService {
  constructor(
    private readonly forwarder: Forwarder,
    private readonly verifier: OrderVerifier,
    private readonly batcher: PlaceBatcher,
  ) {}

  /**
   * POST /order: 200 with the order result when it is accepted; otherwise 400 (503 in post-only mode,
   * with Retry-After) with the result's fields plus `error`, so that both kinds of clients read it.
   */
  async placeOne(caller: ApiCaller, body: unknown): Promise<LaneAnswer & { body: OrderResult | RejectedOrder }> {
    const [result] = await this.place(caller, [body]);
    if (result!.success) return { status: 200, body: result! };
    return {
      status: result!.code === 'post_only_mode' ? 503 : 400,
      body: { ...result!, error: result!.errorMsg },
      retryAfterSeconds: result!.retry_after_seconds || undefined,
    };
  }

  /** POST /orders: 1 to 15 orders, one result each, in the order given. */
  placeMany(caller: ApiCaller, body: unknown): Promise<OrderResult[]> {
    if (!Array.isArray(body)) throw ApiError.of('invalid_request', 'Invalid order payload: expected an array of orders');
    if (body.length === 0) throw ApiError.of('invalid_request', `Invalid order payload: expected 1 to ${MAX_BATCH_ORDERS} orders, got none`);
    if (body.length > MAX_BATCH_ORDERS) {
      throw ApiError.of('invalid_request', `Too many orders in payload: ${body.length}, max allowed: ${MAX_BATCH_ORDERS}`);
    }
    return this.place(caller, body);
  }

  /** DELETE /orders (and /order, checked before). */
  cancel(caller: ApiCaller, ids: unknown) {
    return this.forward('matching.orders.cancel.v1', { caller, orderIds: orderIdList(ids, MAX_CANCEL_IDS) });
  }

  /** Requests to the matching engine. */
  forward<S extends RpcSubject>(subject: S, payload: unknown): Promise<RpcResponse<S>> {
    return whileEngineRestarts(this.forwarder.send(subject, payload));
  }

  private async place(caller: ApiCaller, bodies: unknown[]): Promise<OrderResult[]> {
    const checked = await Promise.all(bodies.map((body) => this.verifier.check(body)));
    const verified = checked.flatMap((c) => ('verified' in c ? [c.verified] : []));
    const answered = verified.length ? await whileEngineRestarts(this.batcher.place({ caller, orders: verified }), PLACEMENT_UNANSWERED) : [];
    let next = 0;
    return checked.map((c) => ('verified' in c ? answered[next++]! : c.failed));
  }
}

/**
 * Placements the engine received but did not answer in time, or answered that it could not tell whether
 * its write committed: it may have committed them (a soak killed it
 * right after such commits, and those answers had said "restarting; retry", inviting a fresh order and a
 * double position). The order id is the order's hash, so the client can look it up, and the same signed
 * order sent again is refused as a duplicate if it was placed.
 */
const PLACEMENT_UNANSWERED =
  'the matching engine could not confirm the order in time; it may have been placed: read it with GET /data/order/{orderID}, or send the same signed order again in a request signed anew (a placed one is refused as a duplicate)';

/**
 * While the matching engine restarts nobody answers, which upstream reports as 425: the request reached
 * no engine, so nothing was done. A request that may have been carried out (received but not answered in
 * time, or its journal write's outcome unknown) stays a 503, with `unanswered` as its message when given
 * (it was a 425 "restarting" too). Other 503s pass as they are: a request never sent, or one the engine
 * refused because its database is unavailable (until the thirtieth session a placement so refused was
 * told it may have been placed, found by a probe restarting PostgreSQL: none of 278 was).
 */
async function whileEngineRestarts<T>(answer: Promise<T>, unanswered?: string): Promise<T> {
  try {
    return await answer;
  } catch (error) {
    if (!(error instanceof ApiError) || error.body.code !== 'service_unavailable') throw error;
    if (answeredByNobody(error.failure)) throw ApiError.of('too_early', 'the matching engine is restarting or reconnecting; retry shortly', 1);
    throw unanswered && mayHaveActed(error.failure) ? ApiError.of('service_unavailable', unanswered, 1) : error;
  }
}
