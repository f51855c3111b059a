/** How often a recurring failure is said again, at most. */
export const THROTTLED_LOG_MS = 30_000;

/**
 * Says a recurring failure the first time and then at most once per `everyMs`, with how many times it
 * happened since the last line: a failure met once per retry or per request is a few lines a minute,
 * not thousands (a resource-limits probe saw 1,190 lines in 75 s from one full stream).
 */
export class ThrottledLog {
  /** Occurrences in the current series (since the last `ended`). */
  private total = 0;
  /** Occurrences since the last line said. */
  private unsaid = 0;
  private saidAt = 0;

  constructor(private readonly everyMs = THROTTLED_LOG_MS) {}

  /**
   * Counts one occurrence and calls `say` when a line is due: for the first of a series, or `everyMs`
   * after the last line. `since`: the occurrences since the last line, this one included; `total`: the
   * series' so far.
   */
  occurred(say: (since: number, total: number) => void): void {
    this.total++;
    this.unsaid++;
    const now = Date.now();
    if (this.total > 1 && now - this.saidAt < this.everyMs) return;
    this.saidAt = now;
    const since = this.unsaid;
    this.unsaid = 0;
    say(since, this.total);
  }

  /** Ends the series (the failure cleared); answers how many occurrences it had, 0 for none. */
  ended(): number {
    const total = this.total;
    this.total = 0;
    this.unsaid = 0;
    return total;
  }
}
