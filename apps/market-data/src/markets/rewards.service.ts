import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnApplicationShutdown } from '@nestjs/common';
import { JSONCodec, type NatsConnection, type Subscription } from 'nats';
import { MARKETDATA_SUBJECTS, ok, type Reply, type Rewards, type SetRewardsRequest } from '@exchange/contracts';
import { NATS_CONNECTION, prefixed } from '@exchange/service-kit';
import { MARKET_DATA_ENV, type MarketDataEnv } from '../config';
import { MarketRepository } from './market.repository';
import { MarketRegistry } from './market-registry';
import { UNKNOWN_MARKET } from './replies';

const codec = JSONCodec<{ conditionId: string; rewards: Rewards }>();

/**
 * Liquidity rewards set by the operator: stored, then announced on the MARKETDATA stream so that every
 * replica updates its memory (a replica that was down reads them from the database at start).
 */
@Injectable()
export class RewardsService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(RewardsService.name);
  private subscription?: Subscription;

  constructor(
    private readonly registry: MarketRegistry,
    private readonly markets: MarketRepository,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(MARKET_DATA_ENV) private readonly env: MarketDataEnv,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.nc.subscribe(prefixed(this.env.NATS_PREFIX, MARKETDATA_SUBJECTS.rewardsChanged), {
      callback: (error, message) => {
        if (error) return this.logger.warn(`rewards subscription: ${error.message}`);
        const { conditionId, rewards } = codec.decode(message.data);
        this.registry.setRewards(conditionId, rewards);
      },
    });
  }

  onApplicationShutdown(): void {
    this.subscription?.unsubscribe();
  }

  async set(request: SetRewardsRequest): Promise<Reply<{ condition_id: string; rewards: Rewards }>> {
    const rewards: Rewards = request.body;
    if (!(await this.markets.setRewards(request.condition_id, rewards))) return UNKNOWN_MARKET;
    const conditionId = request.condition_id.toLowerCase();
    this.registry.setRewards(conditionId, rewards);
    await this.nc.jetstream().publish(prefixed(this.env.NATS_PREFIX, MARKETDATA_SUBJECTS.rewardsChanged), codec.encode({ conditionId, rewards }));
    return ok({ condition_id: conditionId, rewards });
  }
}
