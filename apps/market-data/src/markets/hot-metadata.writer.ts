import { Inject, Injectable } from '@nestjs/common';
import { formatUnits, hotMetadataKeys, type HotMarketFields } from '@exchange/contracts';
import { MARKET_DATA_ENV, type MarketDataEnv } from '../config';
import { RedisConnection } from '../redis/redis.provider';
import { DEFAULT_FEE_SCHEDULE, feeRateOf } from './clob-market.presenter';
import type { MarketRecord } from './market-registry';

/**
 * Writes the hot metadata of markets to Redis (contracts `hotMetadataKeys`): one hash per token and
 * one per condition id, read by the gateway for its pre-checks and `/tick-size`, `/neg-risk`,
 * `/fee-rate`.
 */
@Injectable()
export class HotMetadataWriter {
  private readonly prefix: string;

  constructor(
    private readonly redis: RedisConnection,
    @Inject(MARKET_DATA_ENV) env: MarketDataEnv,
  ) {
    this.prefix = env.REDIS_KEY_PREFIX;
  }

  async write(records: readonly { record: MarketRecord; acceptingOrders: boolean }[]): Promise<void> {
    if (records.length === 0) return;
    const pipeline = this.redis.client.pipeline();
    for (const { record, acceptingOrders } of records) {
      const s = record.snapshot;
      const common: Omit<HotMarketFields, 'outcome_index'> = {
        condition_id: record.conditionId,
        token_ids: s.tokenIds.join(','),
        tick_size: formatUnits(s.tickSizeUnits),
        min_order_size: formatUnits(s.minOrderSizeUnits),
        neg_risk: s.negRisk ? 'true' : 'false',
        accepting_orders: acceptingOrders ? 'true' : 'false',
        fee_rate: JSON.stringify(feeRateOf(s.feeSchedule, s.category)),
      };
      pipeline.hset(hotMetadataKeys.market(this.prefix, record.conditionId), { ...common, outcome_index: '' });
      s.tokenIds.forEach((tokenId, outcome) =>
        pipeline.hset(hotMetadataKeys.token(this.prefix, tokenId), { ...common, outcome_index: String(outcome) }),
      );
    }
    const results = await pipeline.exec();
    const failed = results?.find(([error]) => error);
    if (failed) throw failed[0];
  }

  async writeDefaultFeeRate(): Promise<void> {
    await this.redis.client.hset(hotMetadataKeys.defaults(this.prefix), { fee_rate: JSON.stringify(feeRateOf(DEFAULT_FEE_SCHEDULE, '')) });
  }

  /** Whether the defaults hash, written at start and by every refill, is still in Redis. */
  async defaultsPresent(): Promise<boolean> {
    return (await this.redis.client.exists(hotMetadataKeys.defaults(this.prefix))) === 1;
  }
}
