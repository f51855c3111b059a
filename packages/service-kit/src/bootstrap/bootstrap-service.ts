import { constants } from 'node:os';
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
  const stopWhileStarting = exitOnStopWhileStarting(options.name, logger);
  // Every onModuleInit first (order-matching loads its engine there), then requests: started the other
  // way round, the NATS server took requests while the state was still loading (a deposit then wrote a
  // balance built from nothing over the account's real one).
  try {
    await app.init();
  } finally {
    stopWhileStarting.off();
  }
  await app.startAllMicroservices();
  await app.listen(options.healthPort, '0.0.0.0');
  logger.log(`${options.name} is up (health on :${options.healthPort})`);
  return app;
}

/** The stop signals of a supervisor, Docker and Kubernetes (SIGTERM) and of a terminal (SIGINT). */
const STOP_SIGNALS = ['SIGTERM', 'SIGINT'] as const;

/**
 * Until `off`, a stop signal ends the process at once, saying so, as a crash would: it has answered no
 * request yet, and what its start consumed from streams is delivered again to the next. Nest's own
 * handler runs the shutdown hooks beside an init still under way (an order-matching waiting for the
 * journal's lock, or any service waiting for its database, had its pools ended under its load) and then
 * lets the signal end the process without a line.
 */
function exitOnStopWhileStarting(name: string, logger: JsonLogger): { off(): void } {
  const stop = (signal: (typeof STOP_SIGNALS)[number]) => {
    logger.warn(`${signal} while starting: ${name} exits at once (it has answered no request)`);
    // process.exit, not the signal's default action: the logger writes its last lines on 'exit'.
    process.exit(128 + constants.signals[signal]);
  };
  for (const signal of STOP_SIGNALS) process.once(signal, stop);
  return {
    off() {
      for (const signal of STOP_SIGNALS) process.removeListener(signal, stop);
    },
  };
}
