import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { requestContext } from '@exchange/service-kit';
import { headersOf, toFailure } from './error-body.filter';
import { requestIdOf } from './fastify-setup';

/**
 * A lane answers the busiest routes in front of Fastify (plugged in through Fastify's `serverFactory`):
 * Fastify's router and hooks, Nest's middleware runner and pipeline cost more per request than these
 * routes' own work (docs/gateway.md, "Lanes"). It takes a request and says true, or says false and
 * leaves it to Fastify; it decides from the method, path and headers alone, before reading the body.
 */
export type Lane = (request: IncomingMessage, response: ServerResponse) => boolean;

export interface AccessLine {
  method: string;
  url: string;
  status: number;
  ms: number;
}

export type AccessLog = (line: AccessLine) => void;

/** What a lane's route answers: a JSON value (a string is sent as it is, already JSON). */
export interface LaneAnswer {
  status: number;
  body: unknown;
  retryAfterSeconds?: number;
  /** Further response headers (the rate limit's state). */
  headers?: Record<string, string>;
}

const JSON_TYPE = 'application/json; charset=utf-8';

/** The milliseconds since `started` (performance.now()) as the access log writes them: two decimals. */
export function elapsedMs(started: number): number {
  return Math.round((performance.now() - started) * 100) / 100;
}

/**
 * Serves a request a lane took as Fastify's routes are served: the caller's request id (or a new one)
 * in the async context (NATS headers, log lines) and in the response, the error body of SPEC.md for
 * anything thrown, an access log line.
 */
export async function serveInLane(
  request: IncomingMessage,
  response: ServerResponse,
  accessLog: AccessLog,
  answer: () => Promise<LaneAnswer>,
): Promise<void> {
  const started = performance.now();
  const requestId = requestIdOf(request.headers['x-request-id']);
  let result: LaneAnswer;
  try {
    result = await requestContext.run({ requestId }, answer);
  } catch (error) {
    const failure = toFailure(error);
    result = { status: failure.status, body: failure.body, retryAfterSeconds: failure.body.retry_after_seconds, headers: headersOf(error) };
  }
  const body = typeof result.body === 'string' ? result.body : JSON.stringify(result.body);
  const headers: Record<string, string | number> = {
    ...result.headers,
    'content-type': JSON_TYPE,
    'content-length': Buffer.byteLength(body),
    'x-request-id': requestId,
  };
  if (result.retryAfterSeconds !== undefined) headers['retry-after'] = String(result.retryAfterSeconds);
  response.writeHead(result.status, headers);
  response.end(request.method === 'HEAD' ? undefined : body);
  requestContext.run({ requestId }, accessLog, {
    method: request.method!,
    url: request.url!,
    status: result.status,
    ms: elapsedMs(started),
  });
}
