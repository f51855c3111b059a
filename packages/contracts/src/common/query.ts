import { z } from 'zod';

/**
 * Schemas that accept both the raw query-string form (strings, as the gateway receives them) and the
 * typed form (as services receive them over NATS), so one schema validates at both ends. Each names
 * its field in its message, so that a 400 says what was wrong.
 */

/** A parameter given twice arrives as an array (it was said to be "an integer" or "true or false"). */
const repeated = (name: string) => `${name} must be given once`;

export function queryInt(name: string, min: number, max: number) {
  return z.unknown().transform((value, ctx) => {
    // Any run of digits is an integer, however long: past the bounds it is out of range, not "not an integer".
    const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d+$/.test(value) ? Number(value) : NaN;
    const message = Array.isArray(value)
      ? repeated(name)
      : Number.isNaN(n)
        ? `${name} must be an integer`
        : n < min
          ? `${name} must be >= ${min}`
          : n > max
            ? `${name} must be <= ${max}`
            : !Number.isInteger(n)
              ? `${name} must be an integer`
              : undefined;
    if (message === undefined) return n;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });
}

/**
 * A single-valued parameter read by `schema`: given twice it arrives as an array, said so rather than
 * in the schema's words ("expected string, received array", or a malformed id; found by a probe).
 */
export function queryOnce<T extends z.ZodType>(name: string, schema: T) {
  return z
    .unknown()
    .refine((value) => !Array.isArray(value), { message: repeated(name), abort: true })
    .pipe(schema);
}

export function queryBool(name: string) {
  return z.unknown().transform((value, ctx) => {
    if (typeof value === 'boolean') return value;
    if (value === 'true' || value === 'false') return value === 'true';
    ctx.addIssue({ code: 'custom', message: Array.isArray(value) ? repeated(name) : `${name} must be true or false` });
    return z.NEVER;
  });
}

export function queryText(name: string, maxLength: number) {
  return z
    .string({ error: (issue) => (issue.input === undefined ? `${name} is required` : `${name} must be a single string`) })
    .trim()
    .min(1, `${name} must not be empty`)
    .max(maxLength, `${name} must be at most ${maxLength} characters`);
}

/**
 * Words of a fixed set, given once as a comma list: an array is the parameter repeated, a 400 as for
 * every other parameter (it was read as a list until the eighteenth session; found by a probe).
 */
export function queryWordList<const W extends readonly [string, ...string[]]>(name: string, words: W) {
  return z.unknown().transform((value, ctx) => {
    if (typeof value !== 'string') {
      ctx.addIssue({ code: 'custom', message: `${repeated(name)}, as a comma list` });
      return z.NEVER;
    }
    const list = value.split(',').map((w) => w.trim());
    if (list.every((w) => words.includes(w))) return list as W[number][];
    ctx.addIssue({ code: 'custom', message: `${name} must be among ${words.join(', ')}` });
    return z.NEVER;
  });
}

/**
 * Upstream's array parameters (`id[]`, `slug[]`): each value given once or repeated (`id=1&id=2`, as
 * clients encode an array), every one checked by `item`; at most `maxItems`.
 */
export function queryList<T extends z.ZodType>(name: string, item: T, maxItems: number) {
  const items = z.array(item).max(maxItems, `at most ${maxItems} values of ${name}`);
  return z.unknown().transform((value, ctx): z.output<T>[] => {
    const parsed = items.safeParse(typeof value === 'string' ? [value] : value);
    if (parsed.success) return parsed.data;
    ctx.addIssue({ code: 'custom', message: parsed.error.issues[0]?.message ?? `${name} must be strings` });
    return z.NEVER;
  });
}

/** Postgres integer ids; also keeps offsets inside what the database accepts. */
export const INT32_MAX = 2_147_483_647;
