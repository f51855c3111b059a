import { randomUUID } from 'node:crypto';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { fail, UNSTORABLE_TEXT } from '@exchange/contracts';
import { requestContext } from '@exchange/service-kit';
import type { AuthenticatedRequest } from '../auth/api-caller';
import { marketForm } from '../catalog/markets.controller';
import { CLOB_MARKET_ROUTE } from '../rate-limits/rate-limit-rules';
import type { RateLimiter } from '../rate-limits/rate-limiter';
import type { Surface } from '../surfaces';
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
 * rate limits of public routes applied before the handler. A signed route's request that is refused
 * before it authenticates (its body unread, a 4xx other than the authentication's own 401) counts as a
 * failed authentication of its party (`RateLimiter.failingParty`), and a party past those is refused
 * before its body is read. A signed write's failure answer is kept with its replay claim, for its
 * replays (`L2Authenticator.keepFailure`).
 */
export function setUpFastify(fastify: FastifyInstance, surface: Surface, accessLog: (line: Record<string, unknown>) => void, limiter: RateLimiter): void {
  const routeOf = (request: FastifyRequest) => {
    // Unknown paths have no route pattern: they count as a CLOB route by their path.
    const route = request.routeOptions.url ?? pathOf(request.url);
    // GET /markets/{id} is a catalog route where the catalog form answers it; the CLOB form is a CLOB
    // route (it counted against the catalog's limit on the CLOB port until the twenty-second session).
    return route === '/markets/:id' && marketForm(surface, (request.params as { id?: string }).id ?? '') === 'clob' ? CLOB_MARKET_ROUTE : route;
  };
  // A signed route this surface serves: a path it does not serve (an order sent to the catalog's port, say)
  // is a 404 that costs no authentication, and counted as a failed one it shut a misconfigured client
  // out of every port once its failures ran out (until the twenty-ninth session).
  const servedSigned = (request: FastifyRequest, route: string) => request.routeOptions.url !== undefined && limiter.isSigned(request.method, route);
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header('x-request-id', request.id);
    if (urlHoldsNul(request.url)) return sendFailure(reply, fail('invalid_request', UNSTORABLE_TEXT));
    const route = routeOf(request);
    if (servedSigned(request, route)) {
      try {
        limiter.refuseFailing(limiter.failingParty(request.raw));
      } catch (error) {
        return sendFailure(reply, toFailure(error), headersOf(error));
      }
    }
    limiter.admitPublic(request.raw, request.method, route).then(
      (headers) => {
        void reply.headers(headers);
        requestContext.run({ requestId: request.id }, done);
      },
      (error: unknown) => sendFailure(reply, toFailure(error), headersOf(error)),
    );
  });
  // Before the answer leaves, so that a client sending the same request again at once is answered the same.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const claim = (request as AuthenticatedRequest).replayClaim;
    if (claim === undefined || reply.statusCode < 400 || typeof payload !== 'string') return done(null, payload);
    // keepAnswer logs its failures and never rejects.
    void limiter.keepAnswer(claim, { status: reply.statusCode, body: payload }).then(() => done(null, payload));
  });
  fastify.addHook('onResponse', (request, reply, done) => {
    const status = reply.statusCode;
    const unauthenticated = status >= 400 && status < 500 && status !== 401 && status !== 429 && !(request as AuthenticatedRequest).apiCaller;
    if (unauthenticated && servedSigned(request, routeOf(request))) limiter.authFailed(limiter.failingParty(request.raw));
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
