import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { HotMetadata } from './hot-metadata.service';

type QueryString = Record<string, string | string[]>;
/** The rendered answers are JSON strings, sent as they are. */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The reads bots make most (before every order and on every tick) registered straight on Fastify, not
 * through Nest's router: Nest's per-request pipeline (context, pipes, interceptors, filters) cost more
 * than the answer itself, which is a lookup in the process's copy of Redis (`HotCache`). The hooks of
 * `setUpFastify` (request id, access log, error body) apply to these routes as to every other.
 */
export function registerHotRoutes(fastify: FastifyInstance, hot: HotMetadata): void {
  const json = (answer: (request: FastifyRequest) => Promise<unknown>) => async (request: FastifyRequest, reply: FastifyReply) => {
    const body = await answer(request);
    return reply.type(JSON_TYPE).send(body);
  };
  const query = (request: FastifyRequest) => request.query as QueryString;
  const tokenParam = (request: FastifyRequest) => ({ token_id: (request.params as { id: string }).id });
  const tokenQuery = (request: FastifyRequest) => ({ token_id: query(request).token_id });

  fastify.get('/book', json((request) => hot.quote('marketdata.book.v1', query(request))));
  fastify.get('/price', json((request) => hot.quote('marketdata.price.v1', query(request))));
  fastify.get('/midpoint', json((request) => hot.quote('marketdata.midpoint.v1', query(request))));
  // Per-token settings clients read before signing orders; `/{route}/{token_id}` works as well.
  fastify.get('/tick-size', json((request) => hot.tickSize(tokenQuery(request))));
  fastify.get('/tick-size/:id', json((request) => hot.tickSize(tokenParam(request))));
  fastify.get('/neg-risk', json((request) => hot.negRisk(tokenQuery(request))));
  fastify.get('/neg-risk/:id', json((request) => hot.negRisk(tokenParam(request))));
  fastify.get('/fee-rate', json((request) => hot.feeRate(tokenQuery(request))));
  fastify.get('/fee-rate/:id', json((request) => hot.feeRate(tokenParam(request))));
}
