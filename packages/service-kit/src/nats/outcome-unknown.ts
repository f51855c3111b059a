import { fail, type Failure } from '@exchange/contracts';

/** What a client is told of a request that may have been carried out though it failed. */
const MAY_HAVE_ACTED = 'a change it asked for may have been made, so check before sending it again';

/**
 * Thrown by a handler that cannot tell whether its write committed (a connection lost while the statement
 * ran): its route answers `outcomeUnknown`, where a database that is merely unavailable (nothing done)
 * is answered "retry shortly", which here could do the change twice.
 */
export class OutcomeUnknownError extends Error {}

/** The answer to a request that may have been carried out: sent and not answered in time, or its write's outcome unknown. */
export function outcomeUnknown(subject: string, why: string): Failure {
  return fail('service_unavailable', `${subject} ${why}: ${MAY_HAVE_ACTED}`, 1);
}

/** Whether a failure says that its request may have been carried out (`outcomeUnknown`). */
export function mayHaveActed(failure: Failure): boolean {
  return failure.body.code === 'service_unavailable' && failure.body.error.endsWith(MAY_HAVE_ACTED);
}
