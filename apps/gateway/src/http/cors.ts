import { z } from 'zod';
import { requestIdOf } from './fastify-setup';
import type { AccessLog, Lane } from './lane';

/** Which browser origins may call the gateway: any (`*`), the ones listed, or none (no CORS headers). */
export type CorsOrigins = '*' | ReadonlySet<string> | null;

/**
 * `CORS_ORIGINS`: `*` (the default), a comma-separated list of origins (`https://site.example`), or empty
 * for none. A listed value that is not an origin (a path, a trailing slash) is refused at start: a
 * browser sends the bare origin, and the entry would never match.
 */
export const corsOriginsSetting = z
  .string()
  .default('*')
  .transform((value, context): CorsOrigins => {
    const text = value.trim();
    if (text === '') return null;
    if (text === '*') return '*';
    const origins = text.split(',').map((o) => o.trim()).filter(Boolean);
    const bad = origins.find((o) => !isOrigin(o));
    if (bad !== undefined) {
      context.addIssue({ code: 'custom', message: `CORS_ORIGINS: "${bad}" is not an origin (scheme://host[:port])` });
      return z.NEVER;
    }
    return new Set(origins);
  });

function isOrigin(text: string): boolean {
  try {
    return new URL(text).origin === text;
  } catch {
    return false;
  }
}

/** What a browser script may read of an answer: the rate limit's state, the retry time, the request id. */
const EXPOSED = 'retry-after, x-request-id, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset';
const METHODS = 'GET, HEAD, POST, PUT, PATCH, DELETE';
/** A comma list of header names (RFC 9110 tokens), as a preflight's Access-Control-Request-Headers holds. */
const HEADER_NAMES = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+(?:[ \t]*,[ \t]*[!#$%&'*+.^_`|~0-9A-Za-z-]+)*$/;
/** How long a browser may keep a preflight's answer (Chromium keeps at most 2 hours, Firefox 1 day). */
const PREFLIGHT_MAX_AGE_SECONDS = '7200';

/**
 * Cross-origin requests from browsers (docs/gateway.md, "Browsers"): every answer to a request from an
 * allowed `Origin` carries `Access-Control-Allow-Origin` and the headers a script may read; a preflight
 * (`OPTIONS` with `Access-Control-Request-Method`) is answered here, 204, with the methods and the
 * request headers asked for (the L2 headers, `authorization` for the operator): credentials are headers
 * a script sets, never cookies, so the answer allows no credentials. Requests without `Origin` (bots,
 * servers) get nothing added. It takes only preflights; for other requests it sets the headers on the
 * response, which Fastify and the lanes then write with their own.
 */
export function corsLane(origins: CorsOrigins, accessLog: AccessLog): Lane {
  return (request, response) => {
    const origin = request.headers.origin;
    if (origins === null || origin === undefined) return false;
    // A listed origin is echoed, so caches must keep answers per origin.
    if (origins !== '*') response.setHeader('vary', 'Origin');
    const allowed = origins === '*' ? '*' : origins.has(origin) ? origin : undefined;
    if (allowed === undefined) return false;
    response.setHeader('access-control-allow-origin', allowed);
    if (request.method !== 'OPTIONS' || request.headers['access-control-request-method'] === undefined) {
      response.setHeader('access-control-expose-headers', EXPOSED);
      return false;
    }
    const asked = request.headers['access-control-request-headers'];
    const headers: Record<string, string> = {
      'access-control-allow-methods': METHODS,
      'access-control-max-age': PREFLIGHT_MAX_AGE_SECONDS,
      'x-request-id': requestIdOf(request.headers['x-request-id']),
    };
    if (asked !== undefined && HEADER_NAMES.test(asked.trim())) headers['access-control-allow-headers'] = asked.trim();
    response.writeHead(204, headers).end();
    accessLog({ method: 'OPTIONS', url: request.url ?? '', status: 204, ms: 0 });
    return true;
  };
}
