import { Inject, Injectable } from '@nestjs/common';
import { MAX_ORDERS_PER_MESSAGE, type OrderPlacement, type OrderResult } from '@exchange/contracts';
import { RpcClient } from '@exchange/service-kit';
import { GATEWAY_ENV, type GatewayEnv } from '../config';
import { ApiError } from '../http/api-error';

interface Waiting {
  placement: OrderPlacement;
  resolve: (results: OrderResult[]) => void;
  reject: (error: unknown) => void;
}

/**
 * Sends order placements to the engine in as few NATS requests as keep it busy: at most
 * `PLACE_REQUESTS_IN_FLIGHT` requests (default 1) wait for the engine at a time, a request starts at
 * least `PLACE_REQUEST_INTERVAL_MS` (default 3) after the previous one, and the placements that arrive
 * meanwhile leave together in the next one (at most MAX_ORDERS_PER_MESSAGE orders each; a full message
 * leaves at once). The engine answers a request only after its group commit anyway, and the placements
 * held here would have waited for the next commit there; each NATS round trip and each commit, on the
 * other hand, costs the gateway, NATS, the engine and PostgreSQL a wake-up each (docs/gateway.md,
 * "Order placement"). A request that fails as a whole (the engine not answering) fails each of its
 * placements with that error. A request unanswered for `PLACE_REQUEST_STALL_MS` (default 500) stops
 * counting against the limit: an engine killed while it held the only request would otherwise hold
 * every placement until that request's timeout, when a new request finds out at once that nobody answers.
 */
@Injectable()
export class PlaceBatcher {
  private waiting: Waiting[] = [];
  private orders = 0;
  private inFlight = 0;
  /** Requests in flight for longer than the stall time, which no longer hold others back. */
  private stalled = 0;
  private scheduled = false;
  /** When the last request started (performance.now()). */
  private lastSentAt = -Infinity;
  private readonly maxInFlight: number;
  private readonly intervalMs: number;
  private readonly stallMs: number;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(GATEWAY_ENV)
    env: Pick<GatewayEnv, 'PLACE_REQUESTS_IN_FLIGHT' | 'PLACE_REQUEST_INTERVAL_MS' | 'PLACE_REQUEST_STALL_MS'>,
  ) {
    this.maxInFlight = env.PLACE_REQUESTS_IN_FLIGHT;
    this.intervalMs = env.PLACE_REQUEST_INTERVAL_MS;
    this.stallMs = env.PLACE_REQUEST_STALL_MS;
  }

  /** The placement's results, in the order of its orders. Placements are checked by the caller. */
  place(placement: OrderPlacement): Promise<OrderResult[]> {
    if (this.orders + placement.orders.length > MAX_ORDERS_PER_MESSAGE) this.send();
    return new Promise((resolve, reject) => {
      this.waiting.push({ placement, resolve, reject });
      this.orders += placement.orders.length;
      this.schedule();
    });
  }

  /**
   * Sends what waits at the end of this turn, or when the interval since the last request is up, unless
   * the engine already has its fill of requests.
   */
  private schedule(): void {
    if (this.scheduled || this.waiting.length === 0 || this.inFlight - this.stalled >= this.maxInFlight) return;
    this.scheduled = true;
    const go = () => {
      this.scheduled = false;
      this.send();
    };
    // Whole milliseconds: Node keeps a timer list per distinct delay.
    const delay = Math.round(this.lastSentAt + this.intervalMs - performance.now());
    if (delay > 0) setTimeout(go, delay);
    else setImmediate(go);
  }

  private send(): void {
    const batch = this.waiting;
    if (batch.length === 0) return;
    this.waiting = [];
    this.orders = 0;
    this.lastSentAt = performance.now();
    this.inFlight++;
    let stalled = false;
    const stall = setTimeout(() => {
      stalled = true;
      this.stalled++;
      this.schedule();
    }, this.stallMs);
    const settled = () => {
      clearTimeout(stall);
      this.inFlight--;
      if (stalled) this.stalled--;
      this.schedule();
    };
    this.rpc.request('matching.orders.place.v1', { placements: batch.map((w) => w.placement) }).then(
      (reply) => {
        settled();
        if (!reply.ok) return batch.forEach((w) => w.reject(new ApiError(reply)));
        batch.forEach((w, i) => w.resolve(reply.data[i]!));
      },
      (error: unknown) => {
        settled();
        batch.forEach((w) => w.reject(error));
      },
    );
  }
}
