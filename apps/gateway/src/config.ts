import { z } from 'zod';
import { baseEnvSchema, parseEnv } from '@exchange/service-kit';
import { authEnvShape } from './auth/auth-config';
import { corsOriginsSetting } from './http/cors';
import { rateLimitEnvShape } from './rate-limits/rate-limit-config';
import { tradingEnvShape } from './trading/trading-config';

const port = z.coerce.number().int().min(0).max(65535);

export const gatewayEnvSchema = baseEnvSchema.extend({
  /** The combined surface: every route, with the /markets/{id} rule of the README. */
  PORT: port.default(8080),
  CATALOG_PORT: port.default(8081),
  CLOB_PORT: port.default(8082),
  DATA_PORT: port.default(8083),
  HOST: z.string().default('0.0.0.0'),
  ADMIN_TOKEN: z.string().min(16, 'ADMIN_TOKEN must be at least 16 characters'),
  /** Largest request body accepted, in bytes, but by the operator API (15 orders are about 40 KB). */
  BODY_LIMIT: z.coerce.number().int().min(1024).default(1024 * 1024),
  /** Largest body of the operator API (`/admin/*`), in bytes: imports of upstream catalog files. */
  ADMIN_BODY_LIMIT: z.coerce.number().int().min(1024).default(20 * 1024 * 1024),
  /**
   * How long a client may take to send a whole request, headers and body (408 after it). Node's default
   * of 300 s let a client that stalls mid-body hold a socket and its buffers for five minutes.
   */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  /**
   * Client connections taken at once over every surface (http/connection-cap.ts); by default the
   * process's open-files limit less an eighth of it (at least 128) kept for its own connections.
   */
  MAX_CLIENT_CONNECTIONS: z.coerce.number().int().min(1).optional(),
  ACCESS_LOG: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  /** Browser origins allowed to call the gateway (docs/gateway.md, "Browsers"): `*`, a comma list, or empty for none. */
  CORS_ORIGINS: corsOriginsSetting,
  ...authEnvShape,
  ...tradingEnvShape,
  ...rateLimitEnvShape,
});
export type GatewayEnv = z.output<typeof gatewayEnvSchema>;

export const GATEWAY_ENV = Symbol('GATEWAY_ENV');

export function loadGatewayEnv(env: NodeJS.ProcessEnv = process.env): GatewayEnv {
  return parseEnv(gatewayEnvSchema, env);
}
