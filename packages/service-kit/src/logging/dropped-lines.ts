/**
 * Counts the log lines that could not be written (a full disk: ENOSPC; a reader gone: EPIPE) and says
 * how many, once, when a write succeeds again: the log then shows the gap and its cause.
 */
export class DroppedLines {
  private count = 0;
  private reason = '';

  /** `lines` were lost to `error`; the first error of a gap is its cause, the rest are its echoes. */
  dropped(lines: number, error: Error): void {
    if (this.count === 0) this.reason = error.message;
    this.count += lines;
  }

  /** Whether lines were lost since the last write that succeeded. */
  get gap(): boolean {
    return this.count > 0;
  }

  /** A write succeeded: answers the line to say about the gap before it, once; undefined when none. */
  written(): string | undefined {
    if (this.count === 0) return undefined;
    const said = `${this.count} log line${this.count === 1 ? '' : 's'} dropped: ${this.reason}`;
    this.count = 0;
    return said;
  }
}
