import { createServer } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest, FastifyServerFactoryHandler } from 'fastify';
import type { NatsConnection } from 'nats';
import { assertNativeKeccak, assertNativeSecp256k1 } from '@exchange/chain';
import { hotMetadataKeys } from '@exchange/contracts';
import { connectNats, exitWhenClosedForGood, JsonLogger, RpcClient } from '@exchange/service-kit';
import { AuthResources } from './auth/auth-resources';
import { refuseDevelopmentSecrets } from './auth/development-secrets';
import { L2Authenticator } from './auth/l2-auth.guard';
import { jsonBodyParser, parseJsonBodiesOnly } from './auth/raw-json-body';
import { answerClientError } from './http/client-error';
import { ConnectionCap, defaultConnectionCap, LOW_OPEN_FILES, openFilesLimit } from './http/connection-cap';
import type { GatewayEnv } from './config';
import { GatewayModule, servesClob, type SharedResources } from './gateway.module';
import { sendFailure, toFailure } from './http/error-body.filter';
import { AdminToken } from './admin/admin-token.guard';
import { operatorBodyLimit, refuseOperatorRequestsWithoutToken } from './admin/operator-requests';
import { ErrorBodyFastifyAdapter, requestIdOf, setUpFastify } from './http/fastify-setup';
import { HotCache } from './market-data/hot-cache';
import { HotMetadata } from './market-data/hot-metadata.service';
import type { Lane } from './http/lane';
import { corsLane } from './http/cors';
import { missingHostLane, refuseConnect, refuseExpectation } from './http/node-refusals';
import { RateLimiter } from './rate-limits/rate-limiter';
import { hotLane } from './market-data/hot-lane';
import { orderLane } from './trading/order-lane';
import { OrdersService } from './trading/orders.service';
import type { Surface } from './surfaces';

export interface RunningGateway {
  /** Bound port per surface (useful when ports were 0). */
  ports: Record<Surface, number>;
  close(): Promise<void>;
}

async function startSurface(surface: Surface, port: number, env: GatewayEnv, shared: SharedResources, logger: JsonLogger, cap?: ConnectionCap) {
  // Set once the app is up; requests they do not take (and all of them while closing) go to Fastify.
  let lanes: Lane[] = [];
  const accessLog = (line: object) => {
    if (env.ACCESS_LOG) logger.log({ surface, ...line }, 'access');
  };
  const hostless = missingHostLane(accessLog);
  const cors = corsLane(env.CORS_ORIGINS, accessLog);
  const adapter = new ErrorBodyFastifyAdapter({
    serverFactory: (handler: FastifyServerFactoryHandler) => {
      const server = createServer(
        {
          requireHostHeader: false,
          requestTimeout: env.REQUEST_TIMEOUT_MS,
          headersTimeout: env.REQUEST_TIMEOUT_MS,
          // Node checks the timeouts this often (30 s by default, which would stretch a short timeout).
          connectionsCheckingInterval: Math.min(1_000, Math.ceil(env.REQUEST_TIMEOUT_MS / 4)),
        },
        (request, response) =>
          cors(request, response) || hostless(request, response) || lanes.some((lane) => lane(request, response)) || handler(request, response),
      )
        .on('checkExpectation', refuseExpectation(accessLog))
        .on('connect', refuseConnect(accessLog));
      cap?.watch(server);
      return server;
    },
    bodyLimit: env.BODY_LIMIT,
    genReqId: (request: { headers: Record<string, string | string[] | undefined> }) => requestIdOf(request.headers['x-request-id']),
    // A request that arrives on an open connection while the gateway closes is served, its answer closing
    // the connection; Fastify's 503 for it had none of the error body's fields (docs/gateway.md, "Stopping").
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    // Slugs may be 200 characters; ids and slugs longer than this are refused with the error body.
    routerOptions: { maxParamLength: 1_000 },
    // Malformed URLs and over-long parameters are refused by the router before any handler runs.
    frameworkErrors: (error: Error, _request: FastifyRequest, reply: FastifyReply) => sendFailure(reply, toFailure(error)),
  });
  const app = await NestFactory.create<NestFastifyApplication>(GatewayModule.forSurface(surface, env, shared), adapter, {
    logger,
  });
  const fastify = app.getHttpAdapter().getInstance();
  operatorBodyLimit(fastify, env.ADMIN_BODY_LIMIT);
  // After init, so that the body parsers set below replace the ones Nest registers there.
  await app.init();
  parseJsonBodiesOnly(fastify);
  setUpFastify(fastify, surface, accessLog, shared.limiter);
  refuseOperatorRequestsWithoutToken(fastify, new AdminToken(env.ADMIN_TOKEN));
  if (servesClob(surface)) {
    const orders = orderLane(app.get(OrdersService), app.get(L2Authenticator), jsonBodyParser(fastify), env.BODY_LIMIT, accessLog);
    lanes = [hotLane(app.get(HotMetadata), shared.limiter, accessLog), orders];
    fastify.addHook('preClose', (done) => {
      lanes = [];
      done();
    });
  }
  await app.listen(port, env.HOST);
  const address = app.getHttpServer().address();
  return { app, port: typeof address === 'object' && address ? address.port : port };
}

/** The cap on client connections (MAX_CLIENT_CONNECTIONS, or the default under the open-files limit); says a low limit. */
function connectionCap(env: GatewayEnv, logger: JsonLogger): ConnectionCap | undefined {
  const openFiles = openFilesLimit();
  const cap = env.MAX_CLIENT_CONNECTIONS ?? defaultConnectionCap(openFiles);
  if (openFiles !== undefined && openFiles < LOW_OPEN_FILES) {
    logger.warn(`the process may open ${openFiles} files (ulimit -n): the gateway takes at most ${cap} client connections; raise the limit for production`, 'gateway');
  }
  const say = { warn: (message: string) => logger.warn(message, 'gateway'), log: (message: string) => logger.log(message, 'gateway') };
  return cap === undefined ? undefined : new ConnectionCap(cap, say);
}

/** How long the gateway waits for Redis before it listens (AuthResources.untilRedisReady). */
const REDIS_WAIT_AT_START_MS = 5_000;

/** Starts the four surfaces on one NATS connection, one auth store and one hot cache. */
export async function startGateway(env: GatewayEnv): Promise<RunningGateway> {
  const logger = new JsonLogger('gateway', env.LOG_LEVEL);
  refuseDevelopmentSecrets(env, logger);
  // Signature checks on the pure-JS fallbacks would be 6-25 times slower: refuse to start instead.
  assertNativeSecp256k1();
  assertNativeKeccak();
  const nc: NatsConnection = await connectNats(env.NATS_URL, 'gateway');
  let closing = false;
  // Until the thirty-second session a gateway whose NATS login was refused stayed up, answering /ok and
  // failing every forwarded request (found by a review).
  exitWhenClosedForGood(nc, 'the NATS connection', () => closing, (message) => logger.error(message, 'gateway'), () => process.exit(1));
  const auth = AuthResources.create(env, logger);
  auth.shareRevocations(nc, env.NATS_PREFIX, (message) => logger.warn(message, 'auth'));
  if (!(await auth.untilRedisReady(REDIS_WAIT_AT_START_MS))) {
    logger.warn(`redis not ready after ${REDIS_WAIT_AT_START_MS} ms: starting without it (no rate limits, signed writes refused until it is)`, 'gateway');
  }
  const shared: SharedResources = {
    rpc: new RpcClient(nc, env.NATS_PREFIX, env.RPC_TIMEOUT_MS),
    auth,
    hot: HotCache.open(env.REDIS_URL, hotMetadataKeys.all(env.REDIS_KEY_PREFIX), (message) => logger.warn(message, 'HotCache')),
    limiter: RateLimiter.fromEnv(env, auth, { warn: (message: string) => logger.warn(message, 'RateLimiter'), log: (message: string) => logger.log(message, 'RateLimiter') }),
  };
  const wanted: [Surface, number][] = [
    ['combined', env.PORT],
    ['catalog', env.CATALOG_PORT],
    ['clob', env.CLOB_PORT],
    ['data', env.DATA_PORT],
  ];
  const cap = connectionCap(env, logger);
  const apps: INestApplication[] = [];
  const ports = {} as Record<Surface, number>;
  for (const [surface, port] of wanted) {
    const started = await startSurface(surface, port, env, shared, logger, cap);
    apps.push(started.app);
    ports[surface] = started.port;
  }
  logger.log(`gateway is up: ${wanted.map(([s]) => `${s} :${ports[s]}`).join(', ')}`);
  return {
    ports,
    async close() {
      closing = true;
      await Promise.all(apps.map((app) => app.close()));
      await Promise.all([shared.auth.close(), shared.hot.close()]);
      await nc.drain();
    },
  };
}
