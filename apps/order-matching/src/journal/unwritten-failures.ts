import { NothingDoneError } from '@exchange/service-kit';
import { JournalNotOpenedError } from './journal-session';

/** A batch whose connection was lost mid-statement was found not committed (group-commit.ts): written again. */
export class BatchNotCommittedError extends NothingDoneError {}

/**
 * Failures of a batch's write after which PostgreSQL certainly holds none of it: no connection could be
 * opened (refused, too many clients, the server starting up; for the journal's own connection any
 * failure to open it again, JournalNotOpenedError), the statement failed and was rolled back for a
 * reason that passes (disk space, memory, a cancel, a conflict, a read-only server), or its connection
 * was lost and the batch was then found not committed (BatchNotCommittedError). Such a batch can be
 * written again as it is. Any other failure may have committed: only a reload from the database can
 * tell (a lost journal connection is asked first).
 */
const NOTHING_WRITTEN = new Set([
  'ECONNREFUSED',
  '53300',
  '57P03',
  '53100',
  '53200',
  // Refused for now, rolled back (a probe saw an operator's cancel restart the engine): a cancel or a
  // statement_timeout, a deadlock or serialization failure, a lock not available, a server that is read-only
  // (the old primary after a failover, until the address leads to the new one).
  '57014',
  '40P01',
  '40001',
  '55P03',
  '25006',
]);

/**
 * Of the refusals of a statement, those that are conditions of the server rather than of the batch (a
 * full data disk, a read-only server): they pass without the batch changing, so they are tried until they
 * do, however long (group-commit.ts counts only the others; connection failures never count). The
 * thirty-fourth session's limit on rewrites counted them too, and a full disk ended the engine after
 * three tries again. Out of memory (53200) stays counted: the batch itself may be what does not fit.
 */
const SERVER_CONDITIONS = new Set(['53100', '25006']);

const codeOf = (error: unknown) => (typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined);

export function leftNothingWritten(error: unknown): boolean {
  if (error instanceof JournalNotOpenedError || error instanceof BatchNotCommittedError) return true;
  const code = codeOf(error);
  return typeof code === 'string' && NOTHING_WRITTEN.has(code);
}

export function serverCondition(error: unknown): boolean {
  const code = codeOf(error);
  return typeof code === 'string' && SERVER_CONDITIONS.has(code);
}
