import { z } from 'zod';

/** The settings of the rate limits, merged into the gateway's environment schema (docs/gateway.md, "Rate limits"). */
export const rateLimitEnvShape = {
  /** `off` turns the limits off (a private exchange behind its own limits, or a benchmark of the engine). */
  RATE_LIMITS: z.enum(['on', 'off']).default('on'),
  /** Multiplies every limit of SPEC.md's table (0.5 halves them, 10 makes them ten times larger). */
  RATE_LIMIT_SCALE: z.coerce.number().positive().max(1_000).default(1),
  /** Proxies in front of the gateway that append to X-Forwarded-For; 0 uses the socket's address. */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
};
