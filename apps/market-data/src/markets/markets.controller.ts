import { Controller } from '@nestjs/common';
import { RpcRoute } from '@exchange/service-kit';
import type { RpcRequest } from '@exchange/contracts';
import { MarketsService } from './markets.service';
import { RewardsService } from './rewards.service';

@Controller()
export class MarketsController {
  constructor(
    private readonly markets: MarketsService,
    private readonly rewards: RewardsService,
  ) {}

  @RpcRoute('marketdata.markets.list.v1')
  async list(request: RpcRequest<'marketdata.markets.list.v1'>) {
    return this.markets.list(request);
  }

  @RpcRoute('marketdata.sampling-markets.list.v1')
  async sampling(request: RpcRequest<'marketdata.sampling-markets.list.v1'>) {
    return this.markets.sampling(request);
  }

  @RpcRoute('marketdata.simplified-markets.list.v1')
  async simplified(request: RpcRequest<'marketdata.simplified-markets.list.v1'>) {
    return this.markets.simplified(request, false);
  }

  @RpcRoute('marketdata.sampling-simplified-markets.list.v1')
  async samplingSimplified(request: RpcRequest<'marketdata.sampling-simplified-markets.list.v1'>) {
    return this.markets.simplified(request, true);
  }

  @RpcRoute('marketdata.markets.get.v1')
  async get(request: RpcRequest<'marketdata.markets.get.v1'>) {
    return this.markets.get(request.condition_id);
  }

  @RpcRoute('marketdata.clob-market.get.v1')
  async info(request: RpcRequest<'marketdata.clob-market.get.v1'>) {
    return this.markets.info(request.condition_id);
  }

  @RpcRoute('marketdata.markets-by-token.v1')
  async byToken(request: RpcRequest<'marketdata.markets-by-token.v1'>) {
    return this.markets.byToken(request.token_id);
  }

  @RpcRoute('marketdata.fee-rate.v1')
  async feeRate(request: RpcRequest<'marketdata.fee-rate.v1'>) {
    return this.markets.feeRate(request);
  }

  @RpcRoute('marketdata.tick-size.v1')
  async tickSize(request: RpcRequest<'marketdata.tick-size.v1'>) {
    return this.markets.tickSize(request.token_id);
  }

  @RpcRoute('marketdata.neg-risk.v1')
  async negRisk(request: RpcRequest<'marketdata.neg-risk.v1'>) {
    return this.markets.negRisk(request.token_id);
  }

  @RpcRoute('marketdata.admin.rewards.set.v1')
  setRewards(request: RpcRequest<'marketdata.admin.rewards.set.v1'>) {
    return this.rewards.set(request);
  }
}
