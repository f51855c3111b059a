import type { DynamicModule, INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { BaseEnv } from '../config';
import { JsonLogger } from '../logging/json-logger';
import { PrefixedNatsServer } from '../nats/prefixed-nats-server';

export interface ServiceOptions {
  name: string;
  module: Type<unknown> | DynamicModule;
  env: BaseEnv;
  /** HTTP port of /healthz for probes; 0 picks a free one (tests). */
  healthPort: number;
}

/**
 * Starts a NATS microservice (queue group = service name) next to a tiny HTTP server for health probes,
 * taking requests only once every module is initialized.
 */
export async function bootstrapService(options: ServiceOptions): Promise<INestApplication> {
  const logger = new JsonLogger(options.name, options.env.LOG_LEVEL);
  const app = await NestFactory.create(options.module, new FastifyAdapter(), { logger, bufferLogs: false });
  app.connectMicroservice(
    { strategy: new PrefixedNatsServer({ natsUrl: options.env.NATS_URL, prefix: options.env.NATS_PREFIX, queue: options.name }) },
    { inheritAppConfig: true },
  );
  app.enableShutdownHooks();
  // Every onModuleInit first (order-matching loads its engine there), then requests: started the other
  // way round, the NATS server took requests while the state was still loading (a deposit then wrote a
  // balance built from nothing over the account's real one).
  await app.init();
  await app.startAllMicroservices();
  await app.listen(options.healthPort, '0.0.0.0');
  logger.log(`${options.name} is up (health on :${options.healthPort})`);
  return app;
}
