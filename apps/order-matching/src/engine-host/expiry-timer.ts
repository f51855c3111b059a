/** Longest wait of one timer: Node's timers overflow past 24.8 days; a far end is looked at again sooner. */
const LONGEST_WAIT_MS = 60_000;

/**
 * Ends GTD orders at the moment they are due (docs/trading.md, "Orders"), not at the engine's next
 * once-a-second tick: until the twenty-first session an order read as live (`/data/order`, `/book`, its
 * reservation) for up to a second past its end (found by a probe). Armed for the earliest end the
 * engine holds, again after every command (which may rest an earlier one) and after each firing.
 */
export class ExpiryTimer {
  private timer?: NodeJS.Timeout;
  private armedFor = Infinity;

  constructor(
    /** The earliest end of a resting GTD order (unix ms), if any. */
    private readonly nextEnd: () => number | undefined,
    private readonly expire: (now: number) => void,
  ) {}

  arm(): void {
    const end = this.nextEnd();
    if (end === undefined || end >= this.armedFor) return;
    clearTimeout(this.timer);
    this.armedFor = end;
    this.timer = setTimeout(() => this.fire(), Math.min(Math.max(0, end - Date.now()), LONGEST_WAIT_MS));
  }

  stop(): void {
    clearTimeout(this.timer);
    this.armedFor = Infinity;
  }

  private fire(): void {
    this.armedFor = Infinity;
    // Early (a far end, or a timer that fired before the clock reached it): nothing is due, and it re-arms.
    this.expire(Date.now());
    this.arm();
  }
}
