/** Resolves after `ms` milliseconds. */
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Polls until the probe answers something other than undefined, and answers that; throws, naming `what`,
 * after `timeoutMs`. The default leaves room for a loaded 2-core machine: a propagation over NATS that
 * takes milliseconds when idle can take seconds while other test files run.
 */
export async function until<T>(probe: () => Promise<T | undefined>, timeoutMs = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`${what} not met in ${timeoutMs} ms`);
    await sleep(25);
  }
}

/** Polls until `check` holds; throws, naming `what`, after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  await until(async () => ((await check()) ? true : undefined), timeoutMs, what);
}
