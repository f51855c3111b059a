import { randomUUID } from 'node:crypto';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance } from 'fastify';
import { fail, UNSTORABLE_TEXT } from '@exchange/contracts';
import { requestContext } from '@exchange/service-kit';
import type { RateLimiter } from '../rate-limits/rate-limiter';
import { headersOf, sendFailure, toFailure } from './error-body.filter';
import { pathOf } from './path-of';
import { urlHoldsNul } from './storable-text';

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** A caller's x-request-id is kept when it looks sane, otherwise a new one is made. */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && REQUEST_ID.test(header) ? header : randomUUID();
}

/**
 * Request id in an async context for the whole request (so that it reaches NATS headers and log
 * lines), echoed in the response, an access log line per request, a NUL in the URL refused and the
 * rate limits of public routes applied before the handler.
 */
export function setUpFastify(fastify: FastifyInstance, accessLog: (line: Record<string, unknown>) => void, limiter: RateLimiter): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    if (urlHoldsNul(request.url)) return sendFailure(reply, fail('invalid_request', UNSTORABLE_TEXT));
    // Unknown paths have no route pattern: they count as a CLOB route by their path.
    limiter.admitPublic(request.raw, request.method, request.routeOptions.url ?? pathOf(request.url)).then(
      (headers) => {
        void reply.headers(headers);
        requestContext.run({ requestId: request.id }, done);
      },
      (error: unknown) => sendFailure(reply, toFailure(error), headersOf(error)),
    );
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    accessLog({
      method: request.method,
      url: request.url,
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime * 100) / 100,
    });
    done();
  });
}

/**
 * Nest's Fastify adapter whose error handler, for errors raised by Fastify before a route handler runs,
 * answers with the error body. It is installed in place of Nest's, not over it: Fastify warns at start
 * (FSTWRN004) when a scope's error handler is set twice.
 */
export class ErrorBodyFastifyAdapter extends FastifyAdapter {
  override setErrorHandler(): FastifyInstance {
    return this.getInstance<FastifyInstance>().setErrorHandler((error, _request, reply) => sendFailure(reply, toFailure(error), headersOf(error)));
  }
}
