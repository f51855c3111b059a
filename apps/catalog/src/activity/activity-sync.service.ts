import { Inject, Injectable, Logger, type BeforeApplicationShutdown, type OnApplicationBootstrap } from '@nestjs/common';
import { RpcClient } from '@exchange/service-kit';
import { CATALOG_ENV, type CatalogEnv } from '../config';
import { ActivityWriter } from './activity-writer';

/**
 * Keeps markets' and events' volume and liquidity (docs/catalog.md, "Volume and liquidity"): every
 * ACTIVITY_SYNC_SECONDS it reads market-data's measures of every market, a page at a time, and stores
 * those that changed. The values are absolute, so a sync that fails or is missed loses nothing: the
 * next one brings the catalog up to date.
 */
@Injectable()
export class ActivitySync implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger(ActivitySync.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private failing = false;
  private stopped = false;

  constructor(
    private readonly rpc: RpcClient,
    private readonly writer: ActivityWriter,
    @Inject(CATALOG_ENV) private readonly env: CatalogEnv,
  ) {}

  onApplicationBootstrap(): void {
    // Not at once: at a start of the whole exchange market-data comes up after the catalog.
    this.schedule(this.env.ACTIVITY_SYNC_SECONDS * 1_000);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  /** One pass over every market, a page at a time. */
  private async syncOnce(): Promise<void> {
    let after: number | undefined;
    do {
      const page = await this.rpc.request('marketdata.activity.v1', after === undefined ? {} : { after });
      if (!page.ok) throw new Error(`market-data answered ${page.status}: ${page.body.error}`);
      await this.writer.write(page.data.markets);
      after = page.data.next ?? undefined;
    } while (after !== undefined && !this.stopped);
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      this.running = this.syncOnce()
        .then(() => {
          if (this.failing) this.logger.log('volume and liquidity are read from market-data again');
          this.failing = false;
        })
        .catch((error: unknown) => {
          // Logged once per run of failures (market-data restarting, say), not every interval.
          if (!this.failing) this.logger.warn(`volume and liquidity not read from market-data (again every ${this.env.ACTIVITY_SYNC_SECONDS} s): ${String(error)}`);
          this.failing = true;
        })
        .finally(() => this.schedule(this.env.ACTIVITY_SYNC_SECONDS * 1_000));
    }, delayMs);
  }
}
