/**
 * Runs a flush when asked, but never two at once and starts at most one per `intervalMs`: asks made
 * while a flush runs or waits for its turn are served by the next one. A lone ask after a quiet
 * moment runs at once, so pacing costs latency only while asks keep coming.
 * `flush` must not reject (it handles and retries its own errors).
 */
export class FlushPacer {
  private running?: Promise<void>;
  private timer?: NodeJS.Timeout;
  private wanted = false;
  private lastStart = Number.NEGATIVE_INFINITY;

  constructor(
    private readonly flush: () => Promise<void>,
    private readonly intervalMs: number,
  ) {}

  request(): void {
    this.wanted = true;
    if (this.running || this.timer) return;
    const wait = this.lastStart + this.intervalMs - Date.now();
    if (wait <= 0) this.start();
    else this.timer = setTimeout(() => this.start(), wait);
  }

  /** Runs what was asked without waiting for the interval, and resolves once no flush runs. */
  async drain(): Promise<void> {
    for (;;) {
      if (this.running) await this.running;
      else if (this.wanted) this.start();
      else return;
    }
  }

  private start(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.wanted = false;
    this.lastStart = Date.now();
    this.running = this.flush().finally(() => {
      this.running = undefined;
      if (this.wanted) this.request();
    });
  }
}
