import type { JsonLogger } from '@exchange/service-kit';
import type { GatewayEnv } from '../config';
import { DEV_ADMIN_TOKEN, DEV_AUTH_SECRET, DEV_CREDENTIALS_KEY } from './auth-config';

type SecretSettings = Pick<GatewayEnv, 'AUTH_SECRET' | 'CREDENTIALS_KEY' | 'ADMIN_TOKEN' | 'ALLOW_DEV_SECRETS'>;

/** The settings that hold a development value of this repository. */
function developmentSecrets(env: SecretSettings): string[] {
  return [
    env.AUTH_SECRET === DEV_AUTH_SECRET && 'AUTH_SECRET',
    env.CREDENTIALS_KEY === DEV_CREDENTIALS_KEY && 'CREDENTIALS_KEY',
    env.ADMIN_TOKEN === DEV_ADMIN_TOKEN && 'ADMIN_TOKEN',
  ].filter((name): name is string => name !== false);
}

/**
 * Refuses to start with a public development value unless the operator allows them: with the default
 * AUTH_SECRET anyone derives every trader's API credentials from the address alone, with the default
 * CREDENTIALS_KEY the stored secrets decrypt, and the default admin token mints collateral. Until the
 * twenty-third session the gateway only warned (and not at all for the token; found by a security probe).
 */
export function refuseDevelopmentSecrets(env: SecretSettings, logger: Pick<JsonLogger, 'warn'>): void {
  const found = developmentSecrets(env);
  if (found.length === 0) return;
  if (!env.ALLOW_DEV_SECRETS) {
    throw new Error(`${found.join(', ')}: the development value of this repository; set your own (docs/auth.md), or ALLOW_DEV_SECRETS=true on a machine nobody else reaches`);
  }
  logger.warn(`${found.join(', ')}: the development value, allowed by ALLOW_DEV_SECRETS: anyone who reaches this gateway can act for every trader`, 'auth');
}
