import { JournalNotOpenedError } from './journal-session';

/**
 * Failures of a batch's write after which PostgreSQL certainly holds none of it: no connection could be
 * opened (refused, too many clients, the server starting up; for the journal's own connection any
 * failure to open it again, JournalNotOpenedError), or the statement failed and was rolled
 * back for want of disk space or memory. Such a batch can be written again as it is. Any other failure,
 * a connection lost while the statement ran above all, may have committed: only a reload from the
 * database can tell.
 */
const NOTHING_WRITTEN = new Set(['ECONNREFUSED', '53300', '57P03', '53100', '53200']);

export function leftNothingWritten(error: unknown): boolean {
  if (error instanceof JournalNotOpenedError) return true;
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' && NOTHING_WRITTEN.has(code);
}
