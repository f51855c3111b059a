import { z } from 'zod';

/**
 * Schemas that accept both the raw query-string form (strings, as the gateway receives them) and the
 * typed form (as services receive them over NATS), so one schema validates at both ends.
 */

export function queryInt(name: string, min: number, max: number) {
  return z
    .union([z.number(), z.string().regex(/^-?\d{1,16}$/, `${name} must be an integer`).transform(Number)])
    .pipe(
      z
        .number()
        .int(`${name} must be an integer`)
        .min(min, `${name} must be >= ${min}`)
        .max(max, `${name} must be <= ${max}`),
    );
}

export function queryBool(name: string) {
  return z.union([
    z.boolean(),
    z.enum(['true', 'false'], { error: `${name} must be true or false` }).transform((v) => v === 'true'),
  ]);
}

export function queryText(name: string, maxLength: number) {
  return z
    .string({ error: `${name} must be a single string` })
    .trim()
    .min(1, `${name} must not be empty`)
    .max(maxLength, `${name} must be at most ${maxLength} characters`);
}

/** Postgres integer ids; also keeps offsets inside what the database accepts. */
export const INT32_MAX = 2_147_483_647;
