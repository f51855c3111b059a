import { DEV_ADMIN_TOKEN, DEV_AUTH_SECRET, DEV_CREDENTIALS_KEY } from '../../src/auth/auth-config';
import { refuseDevelopmentSecrets } from '../../src/auth/development-secrets';

describe('the repository development secrets', () => {
  const own = { AUTH_SECRET: 'a'.repeat(64), CREDENTIALS_KEY: Buffer.alloc(32, 7).toString('base64'), ADMIN_TOKEN: 'an-operator-token-of-its-own', ALLOW_DEV_SECRETS: false };
  const warnings: string[] = [];
  const logger = { warn: (message: string) => void warnings.push(message) };
  beforeEach(() => (warnings.length = 0));

  it('start nothing unless allowed, and the refusal names each setting that holds one', () => {
    expect(() => refuseDevelopmentSecrets({ ...own, AUTH_SECRET: DEV_AUTH_SECRET }, logger)).toThrow(/^AUTH_SECRET: the development value/);
    expect(() => refuseDevelopmentSecrets({ ...own, CREDENTIALS_KEY: DEV_CREDENTIALS_KEY, ADMIN_TOKEN: DEV_ADMIN_TOKEN }, logger)).toThrow(
      /^CREDENTIALS_KEY, ADMIN_TOKEN: the development value/,
    );
    expect(warnings).toEqual([]);
  });

  it('are allowed with ALLOW_DEV_SECRETS, with a warning naming them', () => {
    refuseDevelopmentSecrets({ ...own, AUTH_SECRET: DEV_AUTH_SECRET, ALLOW_DEV_SECRETS: true }, logger);
    expect(warnings).toEqual([expect.stringMatching(/^AUTH_SECRET: the development value, allowed by ALLOW_DEV_SECRETS/)]);
  });

  it('leave an operator with its own values alone, allowed or not', () => {
    refuseDevelopmentSecrets(own, logger);
    refuseDevelopmentSecrets({ ...own, ALLOW_DEV_SECRETS: true }, logger);
    expect(warnings).toEqual([]);
  });
});
