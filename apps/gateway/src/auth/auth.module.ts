import { Module, type DynamicModule } from '@nestjs/common';
import { RateLimiter } from '../rate-limits/rate-limiter';
import type { Surface } from '../surfaces';
import { ApiKeyRepository } from './api-key.repository';
import { ApiKeysService } from './api-keys.service';
import { AuthController } from './auth.controller';
import { AuthResources } from './auth-resources';
import { L1AuthGuard } from './l1-auth.guard';
import { L2AuthGuard, L2Authenticator } from './l2-auth.guard';

/**
 * Authentication for one surface. The key endpoints are served where the upstream CLOB host serves them
 * (the CLOB and combined surfaces); `L2AuthGuard` is available to the controllers of every surface.
 */
@Module({})
export class AuthModule {
  static forSurface(surface: Surface, resources: AuthResources, limiter: RateLimiter): DynamicModule {
    const providers = [
      { provide: AuthResources, useValue: resources },
      { provide: RateLimiter, useValue: limiter },
      ApiKeyRepository,
      ApiKeysService,
      L1AuthGuard,
      L2Authenticator,
      L2AuthGuard,
    ];
    return {
      module: AuthModule,
      global: true,
      controllers: surface === 'clob' || surface === 'combined' ? [AuthController] : [],
      providers,
      exports: providers,
    };
  }
}
