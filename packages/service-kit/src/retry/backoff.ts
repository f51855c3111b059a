/** The pause before retry number `attempt` (0 for the first): `firstMs`, doubled at each attempt, at most `maxMs`. */
export function backoffMs(attempt: number, firstMs: number, maxMs = 5_000): number {
  return Math.min(maxMs, firstMs * 2 ** attempt);
}

/** Waits `backoffMs(attempt, firstMs, maxMs)`. */
export function backoff(attempt: number, firstMs: number, maxMs = 5_000): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, backoffMs(attempt, firstMs, maxMs)));
}
