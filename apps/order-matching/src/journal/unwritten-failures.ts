import { NothingDoneError } from '@exchange/service-kit';
import { JournalNotOpenedError } from './journal-session';

/** A batch whose connection was lost mid-statement was found not committed (group-commit.ts): written again. */
export class BatchNotCommittedError extends NothingDoneError {}

/**
 * Failures of a batch's write after which PostgreSQL certainly holds none of it: no connection could be
 * opened (refused, too many clients, the server starting up; for the journal's own connection any
 * failure to open it again, JournalNotOpenedError), the statement failed and was rolled
 * back for want of disk space or memory, or its connection was lost and the batch was then found not
 * committed (BatchNotCommittedError). Such a batch can be written again as it is. Any other failure may
 * have committed: only a reload from the database can tell (a lost journal connection is asked first).
 */
const NOTHING_WRITTEN = new Set(['ECONNREFUSED', '53300', '57P03', '53100', '53200']);

export function leftNothingWritten(error: unknown): boolean {
  if (error instanceof JournalNotOpenedError || error instanceof BatchNotCommittedError) return true;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && NOTHING_WRITTEN.has(code);
}
