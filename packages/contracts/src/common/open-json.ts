import { z } from 'zod';

/**
 * Deepest nesting of an open JSON field a service stores as given (an event's metadata). Prisma's JSON
 * encoding fails past about 126 levels (a 500 until 2026-11-26), and no metadata needs more than a few.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether a JSON value nests objects and arrays at most `max` levels deep (a scalar is 0 deep, `{}` and
 * `[1]` are 1). It stops one level past `max`, so a hostile value costs no deep recursion.
 */
export function jsonDepthAtMost(value: unknown, max: number): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (max === 0) return false;
  return Object.values(value).every((item) => jsonDepthAtMost(item, max - 1));
}

/** A JSON object with keys and values of the caller's choosing, at most `maxDepth` levels deep itself included. */
export function openJsonObject(name: string, maxDepth: number) {
  return z
    .record(z.string(), z.unknown())
    .refine((value) => jsonDepthAtMost(value, maxDepth), `${name} must not be nested more than ${maxDepth} levels deep`);
}
