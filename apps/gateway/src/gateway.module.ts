import { Module, type DynamicModule, type Type } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { RpcClient } from '@exchange/service-kit';
import { AdminController } from './admin/admin.controller';
import { AdminTokenGuard } from './admin/admin-token.guard';
import { AuthModule } from './auth/auth.module';
import type { AuthResources } from './auth/auth-resources';
import { EventsController } from './catalog/events.controller';
import { MarketsController } from './catalog/markets.controller';
import { TagsController } from './catalog/tags.controller';
import { GATEWAY_ENV, type GatewayEnv } from './config';
import { HealthController } from './health/health.controller';
import { ErrorBodyFilter } from './http/error-body.filter';
import { RpcModule } from './http/rpc.module';
import { BooksController } from './market-data/books.controller';
import { ClobMarketsController } from './market-data/clob-markets.controller';
import { HotCache } from './market-data/hot-cache';
import { HotMetadata } from './market-data/hot-metadata.service';
import { RewardsAdminController } from './market-data/rewards-admin.controller';
import type { RateLimiter } from './rate-limits/rate-limiter';
import { SURFACE, type Surface } from './surfaces';
import { ClockController } from './trading/clock.controller';
import { MoneyAdminController } from './trading/money.controller';
import { OrdersController } from './trading/orders.controller';
import { OrderScoringService } from './trading/order-scoring.service';
import { OrdersService } from './trading/orders.service';
import { OrderVerifier } from './trading/order-verifier.service';
import { PlaceBatcher } from './trading/place-batcher';

/** Which controllers each surface serves; the combined surface serves them all. */
const CONTROLLERS: Record<Exclude<Surface, 'combined'>, Type<unknown>[]> = {
  catalog: [EventsController, MarketsController, TagsController, AdminController],
  clob: [
    MarketsController,
    ClockController,
    OrdersController,
    MoneyAdminController,
    ClobMarketsController,
    BooksController,
    RewardsAdminController,
  ],
  data: [],
};

/** The surfaces that serve the CLOB routes (and so the lanes in front of Fastify: http/lane.ts). */
export function servesClob(surface: Surface): boolean {
  return surface === 'combined' || surface === 'clob';
}

export function controllersOf(surface: Surface): Type<unknown>[] {
  const lists = surface === 'combined' ? Object.values(CONTROLLERS) : [CONTROLLERS[surface]];
  return [HealthController, ...new Set(lists.flat())];
}

/** What the surfaces of one gateway process share. */
export interface SharedResources {
  rpc: RpcClient;
  auth: AuthResources;
  hot: HotCache;
  limiter: RateLimiter;
}

/** One HTTP application per surface; all of them share the process's connections. */
@Module({})
export class GatewayModule {
  static forSurface(surface: Surface, env: GatewayEnv, shared: SharedResources): DynamicModule {
    return {
      module: GatewayModule,
      imports: [RpcModule.using(shared.rpc), AuthModule.forSurface(surface, shared.auth, shared.limiter)],
      controllers: controllersOf(surface),
      providers: [
        { provide: SURFACE, useValue: surface },
        { provide: GATEWAY_ENV, useValue: env },
        { provide: HotCache, useValue: shared.hot },
        { provide: APP_FILTER, useClass: ErrorBodyFilter },
        OrderVerifier,
        PlaceBatcher,
        OrdersService,
        OrderScoringService,
        AdminTokenGuard,
        HotMetadata,
      ],
    };
  }
}
