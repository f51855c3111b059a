import { z } from 'zod';
import { natsServerOptions } from './nats/nats-servers';

/** Settings every service reads: where NATS is, the subject namespace, log level. */
export const baseEnvSchema = z.object({
  /** One server or a comma list; credentials in the user part (`nats://user:password@host:4222`, nats-servers.ts). */
  NATS_URL: z
    .string()
    .default('nats://127.0.0.1:4222')
    .superRefine((url, context) => {
      try {
        natsServerOptions(url);
      } catch (error) {
        context.addIssue({ code: z.ZodIssueCode.custom, message: (error as Error).message });
      }
    }),
  /** Namespace of every subject and stream, so that several exchanges (or test runs) share one NATS. */
  NATS_PREFIX: z.string().regex(/^[A-Za-z0-9_-]{1,32}$/, 'NATS_PREFIX must be 1-32 letters, digits, _ or -').default('exch'),
  RPC_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(5_000),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error']).default('info'),
});
export type BaseEnv = z.output<typeof baseEnvSchema>;

/**
 * Parses the environment once at boot. A bad setting stops the process with one line per problem,
 * rather than failing later in the middle of a request.
 */
export function parseEnv<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.output<S> {
  const parsed = schema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`).join('\n');
  throw new Error(`invalid configuration:\n${problems}`);
}
