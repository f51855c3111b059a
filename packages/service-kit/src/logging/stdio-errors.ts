/** Set on a stream once the listener is on it. */
const IGNORING = Symbol.for('@exchange/service-kit stdio errors ignored');

/**
 * Lets a failed write to stdout or stderr lose its lines instead of ending the process. Node emits the
 * failure (ENOSPC on a full log disk, EPIPE once a piped reader is gone) as an 'error' event on the
 * stream, after the write returned, and an 'error' event without a listener ends the process: a full
 * disk made the gateway exit and restart in a loop. The logger counts its own lost lines
 * (batched-stdout.ts); the listener says nothing, as saying would be one more write that fails.
 */
export function ignoreStdioErrors(): void {
  // Once per stream, however many copies of this module are loaded. The flag is on the stream, not on
  // `process`: jest gives each test file its own copy of `process`, but they all share the real streams.
  for (const stream of [process.stdout, process.stderr]) {
    const flagged = stream as unknown as Record<symbol, boolean>;
    if (flagged[IGNORING]) continue;
    flagged[IGNORING] = true;
    stream.on('error', () => undefined);
  }
}
