import { ApiError } from './api-error';

/**
 * A request body whose fields a route reads: a JSON object, or none at all (read as `{}`). Anything else
 * is a 400: read as an object, `[]`, `"x"` or `null` had no fields, and on a route whose fields are all
 * optional filters that meant no filter (a `DELETE /cancel-market-orders` with such a body cancelled
 * every order of the account; found by fuzzing).
 */
export function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw ApiError.of('invalid_request', 'the body must be a JSON object');
  return body as Record<string, unknown>;
}
