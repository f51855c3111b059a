/**
 * Gives each gap in a market's bookSeqs a grace period: the missing events may only be late (a batch
 * of several messages delivered out of order). A gap still open after it means they were lost (a
 * recreated stream, a stream replayed from a position after a snapshot of another stream), and
 * nothing would ever fill it: `stale` is called then, with the market and the bookSeq the gap was found
 * before, for its owner to check and reload the books.
 */
export class GapWatch {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly graceMs: number,
    private readonly stale: (conditionId: string, before: number) => void,
  ) {}

  opened(conditionId: string, before: number): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.stale(conditionId, before);
    }, this.graceMs);
    this.timers.add(timer);
  }

  /** Forgets every gap: the books were replaced, or the service stops. */
  clear(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }
}
