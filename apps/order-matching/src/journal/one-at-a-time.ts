/**
 * Runs tasks one after the other: each starts once the one before it settled, whether it succeeded or
 * failed. For writes whose order must be the order they were decided in.
 */
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();

  run<T>(task: () => Promise<T>): Promise<T> {
    const current = this.last.then(task);
    this.last = current.catch(() => undefined);
    return current;
  }
}
