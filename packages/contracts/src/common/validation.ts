import type { z } from 'zod';

/** One readable sentence for a failed validation, naming the offending field. */
export function describeIssues(error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const path = issue.path.map(String).join('.');
      const field = String(issue.path[issue.path.length - 1] ?? '');
      if (!path || issue.message.startsWith(field) || issue.message.startsWith(path)) return issue.message;
      return `${path}: ${issue.message}`;
    })
    .join('; ');
}
