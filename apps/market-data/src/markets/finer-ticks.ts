import { Inject, Injectable, Logger } from '@nestjs/common';
import { RpcClient } from '@exchange/service-kit';
import { MARKET_DATA_ENV, type MarketDataEnv } from '../config';
import { MarketRegistry } from './market-registry';

const CENT_TICK = 10_000;
/** Prices (YES terms, base units) past which a market of 0.01 ticks gets 0.001 ticks, as upstream. */
const HIGH = 960_000;
const LOW = 40_000;

/**
 * Upstream moves a market's tick from 0.01 to 0.001 once its price goes above 0.96 or below 0.04
 * (UPSTREAM.md, "Tick changes"), where a cent is a large part of the price. A trade there asks the
 * catalog, whose setting it is, for the finer tick (`catalog.admin.markets.patch.v1`, as the operator's
 * PATCH); its snapshot then brings the tick to every service and the tick-size-changed event. Resting
 * orders stay valid: every cent is on the finer grid. Each market is asked for once per process; a
 * failed request is asked again at the market's next trade. `FINER_TICK_AT_EXTREMES=false` turns it off.
 */
@Injectable()
export class FinerTicks {
  private readonly logger = new Logger(FinerTicks.name);
  private readonly asked = new Set<string>();

  constructor(
    private readonly registry: MarketRegistry,
    private readonly rpc: RpcClient,
    @Inject(MARKET_DATA_ENV) private readonly env: MarketDataEnv,
  ) {}

  /** A trade of the market at `yesPrice` (base units, YES terms). */
  traded(conditionId: string, yesPrice: number): void {
    if (!this.env.FINER_TICK_AT_EXTREMES || (yesPrice <= HIGH && yesPrice >= LOW)) return;
    if (this.registry.get(conditionId)?.snapshot.tickSizeUnits !== CENT_TICK || this.asked.has(conditionId)) return;
    this.asked.add(conditionId);
    void this.ask(conditionId);
  }

  private async ask(conditionId: string): Promise<void> {
    try {
      const reply = await this.rpc.request('catalog.admin.markets.patch.v1', { id: conditionId, body: { tickSize: '0.001' } });
      // A resolved market keeps its tick (409): nothing to ask again.
      if (reply.ok || reply.status === 409) return;
      throw new Error(`${reply.status} ${reply.body.error}`);
    } catch (error) {
      this.asked.delete(conditionId);
      this.logger.warn(`finer tick of ${conditionId} not set, asked again at its next trade: ${String(error)}`);
    }
  }
}
