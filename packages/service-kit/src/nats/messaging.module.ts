import { Global, Inject, Injectable, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { HealthChecks } from '../bootstrap/health-checks';
import type { BaseEnv } from '../config';
import { connectNats } from './nats-connection';
import { RpcClient } from './rpc-client';

export const NATS_CONNECTION = Symbol('NATS_CONNECTION');
export const MESSAGING_ENV = Symbol('MESSAGING_ENV');

@Injectable()
class ConnectionCloser implements OnApplicationShutdown {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}
  async onApplicationShutdown(): Promise<void> {
    await this.nc.drain().catch(() => undefined);
  }
}

/** One NATS connection per process for JetStream and outgoing requests, closed on shutdown; the health checks of its parts. */
@Global()
@Module({})
export class MessagingModule {
  static forRoot(env: BaseEnv, name: string): DynamicModule {
    return {
      module: MessagingModule,
      providers: [
        { provide: MESSAGING_ENV, useValue: env },
        { provide: NATS_CONNECTION, useFactory: () => connectNats(env.NATS_URL, name) },
        {
          provide: RpcClient,
          inject: [NATS_CONNECTION],
          useFactory: (nc: NatsConnection) => new RpcClient(nc, env.NATS_PREFIX, env.RPC_TIMEOUT_MS),
        },
        ConnectionCloser,
        HealthChecks,
      ],
      exports: [MESSAGING_ENV, NATS_CONNECTION, RpcClient, HealthChecks],
    };
  }
}
