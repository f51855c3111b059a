import { DroppedLines } from './dropped-lines';

/** Lines above this many characters are written at once rather than waiting for the end of the turn. */
const FLUSH_AT_CHARS = 64 * 1024;

/** Writes a chunk and calls `done` with the write's error, if it failed. */
export type ChunkWrite = (chunk: string, done: (error?: Error | null) => void) => void;

const writeStdout: ChunkWrite = (chunk, done) => void process.stdout.write(chunk, done);

/**
 * A log sink that writes the lines of one turn of the event loop to stdout in one write. A busy
 * gateway logs a line per request: one write each made the write system call its largest cost
 * (stdout is a file or pipe, written synchronously). Lines still pending when the process exits are
 * written on `exit`; only a SIGKILL can lose those of the last turn.
 *
 * The lines of a failed write are dropped and counted; after the next write that succeeds, `say` turns
 * "N log lines dropped: <cause>" into a line that is logged like any other. The writes after a failed
 * one start with a newline (an empty line if the failed write took nothing).
 */
export function batchedStdout(say: (message: string) => string, write: ChunkWrite = writeStdout): (line: string) => void {
  const dropped = new DroppedLines();
  let pending = '';
  let pendingLines = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (pending === '') return;
    // A full disk may have taken the start of the failed write: a newline ends that fragment rather than
    // gluing it to the next line.
    const chunk = dropped.gap ? `\n${pending}` : pending;
    const lines = pendingLines;
    pending = '';
    pendingLines = 0;
    write(chunk, (error) => {
      if (error) {
        dropped.dropped(lines, error);
        return;
      }
      const report = dropped.written();
      if (report !== undefined) add(say(report));
    });
  };
  const add = (line: string) => {
    pending += line + '\n';
    pendingLines++;
    if (pending.length >= FLUSH_AT_CHARS) flush();
    else if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  };
  process.once('exit', flush);
  return add;
}
