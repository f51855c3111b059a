import { z } from 'zod';
import { baseEnvSchema, parseEnv } from '@exchange/service-kit';

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/);

export const catalogEnvSchema = baseEnvSchema.extend({
  DATABASE_URL: z.string().default('postgresql://postgres@127.0.0.1:5432/exchange_catalog'),
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9101),
  DEMO_DATA: z.enum(['true', 'false']).default('true').transform((v) => v === 'true'),
  /** Namespace of derived identifiers: two exchanges with different namespaces never share ids. */
  ID_NAMESPACE: z.string().min(1).max(100).default('prediction-exchange'),
  /** The oracle and collateral addresses that go into condition and token ids, as in the CTF. */
  ORACLE_ADDRESS: address.default('0x0000000000000000000000000000000000000a11'),
  COLLATERAL_ADDRESS: address.default('0x0000000000000000000000000000000000000c01'),
  /** How often markets' and events' volume and liquidity are read again from market-data. */
  ACTIVITY_SYNC_SECONDS: z.coerce.number().int().min(1).max(3_600).default(15),
  /**
   * How long the request that starts an import waits for its report, in ms; an import still running
   * then is answered with its progress and id (docs/catalog.md, "Import"). Below the gateway's RPC timeout.
   */
  IMPORT_WAIT_MS: z.coerce.number().int().min(0).max(60_000).default(2_000),
});
export type CatalogEnv = z.output<typeof catalogEnvSchema>;

export const CATALOG_ENV = Symbol('CATALOG_ENV');

export function loadCatalogEnv(env: NodeJS.ProcessEnv = process.env): CatalogEnv {
  return parseEnv(catalogEnvSchema, env);
}
