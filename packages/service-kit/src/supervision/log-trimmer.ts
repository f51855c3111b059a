import { copyFileSync, statSync, truncateSync } from 'node:fs';

export interface TrimmedLog {
  file: string;
  bytes: number;
}

/**
 * Keeps the apps' log files in bounds the way logrotate's `copytruncate` does: a file grown past
 * `maxBytes` is copied to `<file>.1` (replacing the older copy) and emptied in place. The apps keep
 * writing to the descriptor they were started with, which must be opened for appending (`'a'`), so that
 * their next write lands at the new end rather than at the old offset. Lines written between the copy
 * and the truncation are lost: a few milliseconds' worth, once per `maxBytes`.
 */
export function trimLogs(files: readonly string[], maxBytes: number): TrimmedLog[] {
  const trimmed: TrimmedLog[] = [];
  for (const file of files) {
    let bytes: number;
    try {
      bytes = statSync(file).size;
    } catch {
      continue; // Not written yet.
    }
    if (bytes <= maxBytes) continue;
    copyFileSync(file, `${file}.1`);
    truncateSync(file, 0);
    trimmed.push({ file, bytes });
  }
  return trimmed;
}
