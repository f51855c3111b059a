import { copyFileSync, renameSync, statSync, truncateSync } from 'node:fs';

export interface TrimmedLog {
  file: string;
  bytes: number;
}

/** How a log is kept: pieces of at most about `pieceBytes`, the live file and `pieces` older copies. */
export interface LogLimits {
  pieceBytes: number;
  pieces: number;
}

/** The piece a log is cut into: copying and emptying a larger file stalls the app writing to it. */
export const LOG_PIECE_BYTES = 16 * 1024 * 1024;

/**
 * Pieces for a limit of `maxBytes` per log: the older copies together hold about `maxBytes`. Copying
 * and emptying a 256 MB log in one go blocked the gateway's writes to it for about 100 ms under load
 * (slow answers for every order meanwhile; a probe of the twenty-eighth session), 16 MB pieces for a
 * few milliseconds.
 */
export function logLimits(maxBytes: number): LogLimits {
  const pieceBytes = Math.min(maxBytes, LOG_PIECE_BYTES);
  return { pieceBytes, pieces: Math.ceil(maxBytes / pieceBytes) };
}

/**
 * Keeps the apps' log files in bounds the way logrotate's `copytruncate` with `rotate` does: a file grown
 * past `pieceBytes` is copied to `<file>.1`, after the older copies moved up one (`.1` to `.2`, ...; the
 * copy numbered `pieces` is replaced), and emptied in place. The apps keep writing to the descriptor
 * they were started with, which must be opened for appending (`'a'`), so that their next write lands at
 * the new end rather than at the old offset. Lines written between the copy and the truncation are
 * lost: a fraction of a millisecond's worth, once per piece.
 */
export function trimLogs(files: readonly string[], { pieceBytes, pieces }: LogLimits): TrimmedLog[] {
  const trimmed: TrimmedLog[] = [];
  for (const file of files) {
    let bytes: number;
    try {
      bytes = statSync(file).size;
    } catch {
      continue; // Not written yet.
    }
    if (bytes <= pieceBytes) continue;
    for (let older = pieces - 1; older >= 1; older--) {
      try {
        renameSync(`${file}.${older}`, `${file}.${older + 1}`);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      }
    }
    copyFileSync(file, `${file}.1`);
    truncateSync(file, 0);
    trimmed.push({ file, bytes });
  }
  return trimmed;
}
