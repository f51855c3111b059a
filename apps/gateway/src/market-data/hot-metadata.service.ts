import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  describeIssues,
  feeRateRequest,
  parseUnits,
  hotMetadataKeys,
  rpcContract,
  tokenRequest,
  type FeeRate,
  type HotMarketFields,
  type HotQuoteFields,
  type RpcResponse,
} from '@exchange/contracts';
import { DistinctFailures, recoveryLine } from '@exchange/service-kit';
import { GATEWAY_ENV, type GatewayEnv } from '../config';
import { ApiError } from '../http/api-error';
import { Forwarder } from '../http/forwarder.service';
import { HotCache } from './hot-cache';

const logger = new Logger('HotMetadata');

/** What the gateway checks an order against before it goes to the engine (base units). */
export interface OrderSettings {
  negRisk: boolean;
  acceptingOrders: boolean;
  tickSize: number;
  minOrderSize: number;
}

/**
 * `/tick-size`, `/neg-risk` and `/fee-rate` from the hot market metadata market-data keeps in Redis
 * (through the process's local copy, `HotCache`), asking market-data over NATS when Redis has no entry
 * or fails.
 */
@Injectable()
export class HotMetadata {
  private readonly prefix: string;
  /** One line per distinct failure, not one per request of an outage. */
  private readonly failures = new DistinctFailures(
    (failure) => logger.warn(`hot metadata reads failing, asking market-data: ${failure}`),
    (recovery) => logger.log(recoveryLine('hot metadata reads from Redis succeed', recovery)),
  );

  constructor(
    private readonly cache: HotCache,
    private readonly forward: Forwarder,
    @Inject(GATEWAY_ENV) env: GatewayEnv,
  ) {
    this.prefix = env.REDIS_KEY_PREFIX;
  }

  async tickSize(input: unknown): Promise<{ minimum_tick_size: number }> {
    const value = await this.field(input, 'tick_size');
    return value === undefined ? this.forward.send('marketdata.tick-size.v1', input) : { minimum_tick_size: Number(value) };
  }

  /**
   * `/book`, `/price` and `/midpoint` as market-data pre-rendered them in Redis: the JSON body as a
   * string, sent as it is; an object from market-data over NATS when Redis has no entry.
   */
  async quote<S extends 'marketdata.book.v1' | 'marketdata.price.v1' | 'marketdata.midpoint.v1'>(
    subject: S,
    input: Record<string, unknown>,
  ): Promise<string | RpcResponse<S>> {
    const checked = rpcContract[subject].request.safeParse(input);
    if (!checked.success) throw ApiError.of('invalid_request', describeIssues(checked.error));
    const request = checked.data as { token_id: string; side?: 'BUY' | 'SELL' };
    const field: keyof HotQuoteFields = subject === 'marketdata.book.v1' ? 'book' : subject === 'marketdata.midpoint.v1' ? 'mid' : request.side!;
    const cached = await this.read(hotMetadataKeys.quote(this.prefix, request.token_id), field);
    return cached ?? this.forward.send(subject, input);
  }

  /** A token's order settings, or undefined when Redis has none (yet) or fails: the engine decides then. */
  async orderSettings(tokenId: string): Promise<OrderSettings | undefined> {
    let hash: Record<string, string>;
    try {
      hash = await this.cache.hash(hotMetadataKeys.token(this.prefix, tokenId));
    } catch {
      return undefined;
    }
    const tickSize = parseUnits(hash.tick_size ?? '');
    const minOrderSize = parseUnits(hash.min_order_size ?? '');
    if (tickSize === null || minOrderSize === null) return undefined;
    return { negRisk: hash.neg_risk === 'true', acceptingOrders: hash.accepting_orders === 'true', tickSize, minOrderSize };
  }

  async negRisk(input: unknown): Promise<{ neg_risk: boolean }> {
    const value = await this.field(input, 'neg_risk');
    return value === undefined ? this.forward.send('marketdata.neg-risk.v1', input) : { neg_risk: value === 'true' };
  }

  async feeRate(input: unknown): Promise<FeeRate> {
    const checked = feeRateRequest.safeParse(input);
    if (!checked.success) throw ApiError.of('invalid_request', describeIssues(checked.error));
    const tokenId = checked.data.token_id;
    const key = tokenId === undefined ? hotMetadataKeys.defaults(this.prefix) : hotMetadataKeys.token(this.prefix, tokenId);
    const cached = parsedJson(await this.read(key, 'fee_rate'));
    return cached === undefined ? this.forward.send('marketdata.fee-rate.v1', input) : (cached as FeeRate);
  }

  private async field(input: unknown, field: keyof HotMarketFields): Promise<string | undefined> {
    const checked = tokenRequest.safeParse(input);
    if (!checked.success) throw ApiError.of('invalid_request', describeIssues(checked.error));
    return this.read(hotMetadataKeys.token(this.prefix, checked.data.token_id), field);
  }

  /** A field of a hot hash; a miss or a Redis failure (logged once) sends the caller to market-data instead. */
  private async read(key: string, field: string): Promise<string | undefined> {
    try {
      const value = (await this.cache.hash(key))[field];
      this.failures.cleared();
      return value;
    } catch (error) {
      this.failures.failed(String(error));
      return undefined;
    }
  }
}

/** A hot field's JSON, or undefined when missing or unreadable (market-data answers then, as on a miss). */
function parsedJson(value: string | undefined): unknown {
  if (value === undefined) return undefined;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}
