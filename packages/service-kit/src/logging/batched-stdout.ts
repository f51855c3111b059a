/** Lines above this many characters are written at once rather than waiting for the end of the turn. */
const FLUSH_AT_CHARS = 64 * 1024;

/**
 * A log sink that writes the lines of one turn of the event loop to stdout in one write. A busy
 * gateway logs a line per request: one write each made the write system call its largest cost
 * (stdout is a file or pipe, written synchronously). Lines still pending when the process exits are
 * written on `exit`; only a SIGKILL can lose those of the last turn.
 */
export function batchedStdout(write: (chunk: string) => void = (chunk) => process.stdout.write(chunk)): (line: string) => void {
  let pending = '';
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    const chunk = pending;
    pending = '';
    write(chunk);
  };
  process.once('exit', flush);
  return (line) => {
    pending += line + '\n';
    if (pending.length >= FLUSH_AT_CHARS) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
}
