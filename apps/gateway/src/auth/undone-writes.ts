import type { Failure } from '@exchange/contracts';
import { ApiError } from '../http/api-error';

/**
 * Whether an answer says that its signed write was not carried out, so that its replay claim is given
 * back and the same signed request may be sent again (docs/auth.md, "Replay refusal"): a refusal (4xx)
 * or an unavailable service (503), but not a request a service may have carried out without answering
 * (`Failure.mayHaveActed`: a timeout) nor an unexpected error (500). The stock clients' `retryOnError`
 * sends a write again with the same headers after a 5xx, and a claim kept by the first answer (post-only
 * mode's 503, say) turned it into a 401 "replay" (found by a probe with the stock client).
 */
export function leftUndone(status: number, failure?: Failure): boolean {
  return status >= 400 && status !== 500 && failure?.mayHaveActed !== true;
}

/** `leftUndone` for an error thrown while serving: only the exchange's own refusals (`ApiError`) say so. */
export function errorLeftUndone(error: unknown): boolean {
  return error instanceof ApiError && leftUndone(error.failure.status, error.failure);
}
