import { Module, type DynamicModule } from '@nestjs/common';
import { RpcClient } from '@exchange/service-kit';
import { Forwarder } from './forwarder.service';

/** The process's NATS requests, for every module of a surface (the key routes too: a deleted key ends its heartbeat session). */
@Module({})
export class RpcModule {
  static using(rpc: RpcClient): DynamicModule {
    const providers = [{ provide: RpcClient, useValue: rpc }, Forwarder];
    return { module: RpcModule, global: true, providers, exports: providers };
  }
}
