/** Set on `process` once the listeners are on. */
const IGNORING = Symbol.for('@exchange/service-kit stdio errors ignored');

/**
 * Lets a failed write to stdout or stderr lose its lines instead of ending the process. Node emits the
 * failure (ENOSPC on a full log disk, EPIPE once a piped reader is gone) as an 'error' event on the
 * stream, after the write returned, and an 'error' event without a listener ends the process: a full
 * disk made the gateway exit and restart in a loop. The logger counts its own lost lines
 * (batched-stdout.ts); the listener says nothing, as saying would be one more write that fails.
 */
export function ignoreStdioErrors(): void {
  // Once per process, however many copies of this module are loaded (jest loads one per test file).
  const flagged = process as unknown as Record<symbol, boolean>;
  if (flagged[IGNORING]) return;
  flagged[IGNORING] = true;
  for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
}
