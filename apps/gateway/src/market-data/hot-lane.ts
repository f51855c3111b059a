import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { performance } from 'node:perf_hooks';
import { fail, type Failure } from '@exchange/contracts';
import { requestIdOf } from '../http/fastify-setup';
import { toFailure } from '../http/error-body.filter';
import type { HotMetadata } from './hot-metadata.service';

/** Answers a request and says true, or says false and leaves it to Fastify. */
export type HotLane = (request: IncomingMessage, response: ServerResponse) => boolean;

export interface AccessLine {
  method: string;
  url: string;
  status: number;
  ms: number;
}

type Input = Record<string, unknown>;
type Answer = (input: Input) => Promise<unknown>;

/** The rendered answers are JSON strings, sent as they are. */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * The reads bots make most (before every order and on every tick) answered in front of Fastify, from the
 * process's Redis-invalidated copy (`HotCache`): Fastify's routing and hooks, Nest's middleware runner
 * and the async request context cost more than the answer itself, and took the gateway to under half of
 * a bare Fastify route (docs/performance.md). Everything else, and any request this lane does not
 * recognise, goes on to Fastify. Request id, error body and access log are the same as on Fastify's
 * routes.
 */
export function hotLane(hot: HotMetadata, accessLog: (requestId: string, line: AccessLine) => void): HotLane {
  // `/{route}?token_id=…` and, for the settings clients read before signing, `/{route}/{token_id}`.
  const byQuery = new Map<string, Answer>([
    ['/book', (q) => hot.quote('marketdata.book.v1', q)],
    ['/price', (q) => hot.quote('marketdata.price.v1', q)],
    ['/midpoint', (q) => hot.quote('marketdata.midpoint.v1', q)],
    ['/tick-size', (q) => hot.tickSize({ token_id: q.token_id })],
    ['/neg-risk', (q) => hot.negRisk({ token_id: q.token_id })],
    ['/fee-rate', (q) => hot.feeRate({ token_id: q.token_id })],
  ]);
  const byParam = new Map<string, Answer>([
    ['/tick-size', (p) => hot.tickSize(p)],
    ['/neg-risk', (p) => hot.negRisk(p)],
    ['/fee-rate', (p) => hot.feeRate(p)],
  ]);

  return (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const url = request.url ?? '';
    const mark = url.indexOf('?');
    const path = mark === -1 ? url : url.slice(0, mark);
    const query = byQuery.get(path);
    if (query) {
      void serve(request, response, () => query(mark === -1 ? {} : parseQuery(url.slice(mark + 1))), accessLog);
      return true;
    }
    const slash = path.indexOf('/', 1);
    const param = slash === -1 ? undefined : byParam.get(path.slice(0, slash));
    const id = path.slice(slash + 1);
    if (!param || id === '' || id.includes('/')) return false;
    void serve(request, response, () => param({ token_id: decodeURIComponent(id) }), accessLog);
    return true;
  };
}

async function serve(
  request: IncomingMessage,
  response: ServerResponse,
  answer: () => Promise<unknown>,
  accessLog: (requestId: string, line: AccessLine) => void,
): Promise<void> {
  const started = performance.now();
  const requestId = requestIdOf(request.headers['x-request-id']);
  let status = 200;
  let body: string;
  try {
    const answered = await answer();
    body = typeof answered === 'string' ? answered : JSON.stringify(answered);
  } catch (error) {
    const failure: Failure = error instanceof URIError ? fail('invalid_request', 'malformed path') : toFailure(error);
    status = failure.status;
    body = JSON.stringify(failure.body);
    if (failure.body.retry_after_seconds !== undefined) response.setHeader('retry-after', String(failure.body.retry_after_seconds));
  }
  response.writeHead(status, { 'content-type': JSON_TYPE, 'content-length': Buffer.byteLength(body), 'x-request-id': requestId });
  response.end(request.method === 'HEAD' ? undefined : body);
  accessLog(requestId, { method: request.method!, url: request.url!, status, ms: Math.round((performance.now() - started) * 100) / 100 });
}
