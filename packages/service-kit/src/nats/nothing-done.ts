import { fail, type Failure } from '@exchange/contracts';

/**
 * Thrown by a handler that refused a request before doing any of it, because its process cannot serve
 * now (about to restart, say): its route answers `nothingDone`, a 503 to retry, whatever the cause was.
 */
export class NothingDoneError extends Error {}

/** The answer to a request refused with nothing done (`NothingDoneError`): 503, to be retried in a second. */
export function nothingDone(why: string): Failure {
  return fail('service_unavailable', `${why}; nothing was done; retry shortly`, 1);
}
