import type { IncomingMessage } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import { ApiError } from '../http/api-error';
import { toFailure } from '../http/error-body.filter';
import { serveInLane, type AccessLog, type Lane } from '../http/lane';
import { pathOf } from '../http/path-of';
import type { RateLimiter } from '../rate-limits/rate-limiter';
import type { HotMetadata } from './hot-metadata.service';

type Answer = (input: Record<string, unknown>) => Promise<unknown>;

/**
 * GET (and HEAD) of the reads bots make most, before every order and on every tick, answered from the
 * process's Redis-invalidated copy (`HotCache`): `/book`, `/price`, `/midpoint` and the settings
 * clients read before signing, also as `/{route}/{token_id}`. Any other path goes on to Fastify.
 */
export function hotLane(hot: HotMetadata, limiter: RateLimiter, accessLog: AccessLog): Lane {
  const byQuery = new Map<string, Answer>([
    ['/book', (q) => hot.quote('marketdata.book.v1', q)],
    ['/price', (q) => hot.quote('marketdata.price.v1', q)],
    ['/midpoint', (q) => hot.quote('marketdata.midpoint.v1', q)],
    ['/tick-size', (q) => hot.tickSize({ token_id: q.token_id })],
    ['/neg-risk', (q) => hot.negRisk({ token_id: q.token_id })],
    ['/fee-rate', (q) => hot.feeRate(feeRateQuery(q))],
  ]);
  const byParam = new Map<string, Answer>([
    ['/tick-size', (p) => hot.tickSize(p)],
    ['/neg-risk', (p) => hot.negRisk(p)],
    ['/fee-rate', (p) => hot.feeRate(p)],
  ]);
  // Limited by client address first, as on Fastify's routes; the limit's headers go on a refusal too.
  const ok = (request: IncomingMessage, path: string, answer: () => Promise<unknown>) => async () => {
    const headers = await limiter.admitPublic(request, request.method!, path);
    try {
      return { status: 200, body: await answer(), headers };
    } catch (error) {
      throw new ApiError(toFailure(error), headers);
    }
  };

  return (request, response) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return false;
    const url = request.url ?? '';
    const path = pathOf(url);
    const query = byQuery.get(path);
    if (query) {
      const input = path === url ? {} : parseQuery(url.slice(path.length + 1));
      void serveInLane(request, response, accessLog, ok(request, path, () => query(input)));
      return true;
    }
    const slash = path.indexOf('/', 1);
    const param = slash === -1 ? undefined : byParam.get(path.slice(0, slash));
    const id = path.slice(slash + 1);
    if (!param || id === '' || id.includes('/')) return false;
    void serveInLane(request, response, accessLog, ok(request, path, () => param({ token_id: decodeURIComponent(id) })));
    return true;
  };
}

/**
 * `/fee-rate` answers the default schedule (no fee) without a token, so a misspelled `token_id`
 * (`tokenId`, `token`) answered "no fee" for a market that charges one: any other parameter is refused.
 */
function feeRateQuery(query: Record<string, unknown>): { token_id: unknown } {
  const unknown = Object.keys(query).find((key) => key !== 'token_id');
  if (unknown !== undefined) throw ApiError.of('invalid_request', `unknown parameter ${unknown}: /fee-rate takes token_id (without it, the default schedule)`);
  return { token_id: query.token_id };
}
