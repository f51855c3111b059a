import { z } from 'zod';
import { POLYGON_CHAIN_ID } from '@exchange/chain';

/**
 * Development values, public in this repository: the gateway refuses to start with any of them unless
 * `ALLOW_DEV_SECRETS=true` (`development-secrets.ts`). `scripts/start.mjs` uses the admin token.
 */
export const DEV_AUTH_SECRET = 'dev-only-auth-secret-change-me-in-production';
export const DEV_CREDENTIALS_KEY = 'ZGV2LW9ubHktY3JlZGVudGlhbHMta2V5LTMyYnl0ZXM=';
export const DEV_ADMIN_TOKEN = 'dev-admin-token-change-me';

const base64Key = z
  .string()
  .refine((v) => /^[A-Za-z0-9+/_-]+={0,2}$/.test(v) && Buffer.from(v, 'base64').length === 32, 'must be 32 bytes, base64 encoded');

/** The settings of authentication, merged into the gateway's environment schema (see docs/auth.md). */
export const authEnvShape = {
  /** The gateway's own database: API credentials. */
  DATABASE_URL: z.string().default('postgresql://postgres@127.0.0.1:5432/exchange_gateway'),
  /** Redis for replay refusal of signed writes. */
  REDIS_URL: z.string().default('redis://127.0.0.1:6379'),
  /** Namespace of the gateway's Redis keys, so that several exchanges (or test runs) share one Redis. */
  REDIS_KEY_PREFIX: z.string().regex(/^[A-Za-z0-9_:-]{1,64}$/, 'REDIS_KEY_PREFIX must be 1-64 letters, digits, _ : or -').default('exch'),
  /** Server secret of the deterministic derivation of API credentials from (address, nonce). */
  AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must be at least 32 characters').default(DEV_AUTH_SECRET),
  /** AES-256-GCM key (32 bytes, base64) that encrypts API secrets and passphrases at rest. */
  CREDENTIALS_KEY: base64Key.default(DEV_CREDENTIALS_KEY),
  /** Chain id of the EIP-712 domains (ClobAuth, orders). */
  CHAIN_ID: z.coerce.number().int().positive().default(POLYGON_CHAIN_ID),
  /** Whether the gateway may run with the development values above (the local quick start sets it). */
  ALLOW_DEV_SECRETS: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  /** How far an L1/L2 timestamp may be from the server clock, either way, in seconds. */
  L2_MAX_SKEW_SECONDS: z.coerce.number().int().min(1).max(3_600).default(30),
};
