import { z } from 'zod';
import { baseEnvSchema, parseEnv } from '../src/config';
import { JsonLogger } from '../src/logging/json-logger';
import { requestContext } from '../src/logging/request-context';

describe('parseEnv', () => {
  it('applies defaults and coerces numbers', () => {
    expect(parseEnv(baseEnvSchema, {})).toEqual({
      NATS_URL: 'nats://127.0.0.1:4222',
      NATS_PREFIX: 'exch',
      RPC_TIMEOUT_MS: 5000,
      LOG_LEVEL: 'info',
    });
    expect(parseEnv(baseEnvSchema, { RPC_TIMEOUT_MS: '250' }).RPC_TIMEOUT_MS).toBe(250);
  });

  it('stops with one line per bad setting', () => {
    const schema = baseEnvSchema.extend({ SECRET: z.string().min(4) });
    expect(() => parseEnv(schema, { NATS_PREFIX: 'a.b', RPC_TIMEOUT_MS: '5' })).toThrow(
      /invalid configuration:\n {2}NATS_PREFIX: .*\n {2}RPC_TIMEOUT_MS: .*\n {2}SECRET: /,
    );
  });
});

describe('JsonLogger', () => {
  it('writes one JSON line with the service, level, context and current request id', () => {
    const lines: string[] = [];
    const logger = new JsonLogger('catalog', 'info', (line) => lines.push(line));
    requestContext.run({ requestId: 'req-7' }, () => logger.warn('slow query', 'EventRepository'));
    logger.debug('hidden below the level');
    logger.error(new Error('boom'));
    expect(lines).toHaveLength(2);
    expect(JSON.parse(lines[0]!)).toMatchObject({ level: 'warn', service: 'catalog', requestId: 'req-7', context: 'EventRepository', msg: 'slow query' });
    expect(JSON.parse(lines[1]!)).toMatchObject({ level: 'error', msg: 'boom', stack: expect.stringContaining('Error: boom') });
  });
});
