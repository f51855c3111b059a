import { fail, type Failure } from '@exchange/contracts';

// Socket errors of a server that is down or unreachable, and of a process out of file descriptors or
// local ports (a connection cannot be opened now: a resource probe saw derive-api-key answer 500 there).
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN', 'EMFILE', 'ENFILE', 'EADDRNOTAVAIL']);
// PostgreSQL: the server is shutting down, starting up, out of connections, out of disk space or of
// memory. Until the twenty-fifth session a full disk made 500s (found by a resource probe).
const SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '53100', '53200']);
// Prisma: cannot reach the server, timed out, server closed the connection, pool exhausted.
const PRISMA_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
// Prisma's driver adapter, in `meta.driverAdapterError.cause.kind`.
const ADAPTER_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
// node-postgres's own messages for a lost or unobtainable connection (no code on these).
const PG_MESSAGES = /^(Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error)/;

interface ErrorLike {
  code?: unknown;
  kind?: unknown;
  message?: unknown;
  cause?: unknown;
  meta?: { driverAdapterError?: { cause?: unknown } };
}

/**
 * Whether an error means the database cannot be reached or cannot serve now (a restart, an outage, a
 * full pool), as opposed to a fault of the request or of the code: the first is a 503 worth retrying,
 * the second a 500. Looks through `cause` chains and Prisma's driver-adapter wrapping.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 4 || typeof error !== 'object' || error === null) return false;
  const e = error as ErrorLike;
  const code = typeof e.code === 'string' ? e.code : '';
  if (SOCKET_CODES.has(code) || SQLSTATES.has(code) || code.startsWith('08') || PRISMA_CODES.has(code)) return true;
  if (typeof e.kind === 'string' && ADAPTER_KINDS.has(e.kind)) return true;
  if (typeof e.message === 'string' && PG_MESSAGES.test(e.message)) return true;
  return isDatabaseUnavailable(e.cause, depth + 1) || isDatabaseUnavailable(e.meta?.driverAdapterError?.cause, depth + 1);
}

/** The answer to a request the database could not serve: 503, to be retried in a second. */
export function databaseUnavailable(): Failure {
  return fail('service_unavailable', 'the database is unavailable; retry shortly', 1);
}
