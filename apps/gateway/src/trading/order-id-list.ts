import { orderIdSchema } from '@exchange/contracts';
import { ApiError } from '../http/api-error';

/**
 * A body that must be a list of 1 to `max` order ids (cancels, scoring), checked here so that the texts
 * name what the client sent, a bare array, rather than the engine's `orderIds` field (found by a probe).
 */
export function orderIdList(ids: unknown, max: number): string[] {
  if (!Array.isArray(ids) || ids.length === 0) throw ApiError.of('invalid_request', `expected a list of 1 to ${max} order ids`);
  if (ids.length > max) throw ApiError.of('invalid_request', `Too many order ids: ${ids.length}, max allowed: ${max}`);
  for (const [index, id] of ids.entries()) {
    const parsed = orderIdSchema.safeParse(id);
    if (!parsed.success) throw ApiError.of('invalid_request', `order id at index ${index}: ${parsed.error.issues[0]!.message}`);
  }
  return ids as string[];
}
