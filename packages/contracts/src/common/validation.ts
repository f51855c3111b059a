import type { z } from 'zod';

/**
 * Upstream's own error texts, which clients match whole: said as they are, without the field's name
 * before them (`token_id: Invalid token id` until the eighteenth session; found by a probe), and once.
 */
const UPSTREAM_TEXTS = new Set(['Invalid token id']);

/** One readable sentence for a failed validation, naming the offending field. */
export function describeIssues(error: z.ZodError): string {
  // Zod 4 still runs a length check on a value of the wrong type ("at most 20" of a string): once a
  // field has the wrong type, that is all there is to say about it.
  const mistyped = new Set(error.issues.filter((issue) => issue.code === 'invalid_type').map((issue) => issue.path.join('.')));
  return error.issues
    .filter((issue) => issue.code === 'invalid_type' || !mistyped.has(issue.path.join('.')))
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      const field = String(issue.path[issue.path.length - 1] ?? '');
      if (!path || UPSTREAM_TEXTS.has(issue.message) || issue.message.startsWith(field) || issue.message.startsWith(path)) return issue.message;
      return `${path}: ${issue.message}`;
    })
    .filter((message, i, all) => all.indexOf(message) === i)
    .join('; ');
}
