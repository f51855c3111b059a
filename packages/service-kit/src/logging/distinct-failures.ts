import type { EventEmitter } from 'node:events';

/** What a recovery is told: the last failure said, and how long ago the first of the outage was. */
export interface Recovery {
  lastFailure: string;
  failingForMs: number;
}

/**
 * Says a failure when it first happens and again only when it changes, until a success clears it: an
 * outage is one log line, not one per reconnection attempt or per request meeting it. With `recovered`,
 * the first success after a failure says so too, so that an operator reading the log knows the
 * outage ended and how long it lasted.
 */
export class DistinctFailures {
  private last = '';
  private failingSinceMs = 0;

  constructor(
    private readonly say: (message: string) => void,
    private readonly recovered?: (recovery: Recovery) => void,
  ) {}

  failed(message: string): void {
    if (this.last === '') this.failingSinceMs = Date.now();
    if (message !== this.last) this.say(message);
    this.last = message;
  }

  cleared(): void {
    if (this.last !== '') this.recovered?.({ lastFailure: this.last, failingForMs: Date.now() - this.failingSinceMs });
    this.last = '';
  }
}

/**
 * Says a connection's failures (its `error` events) once each until it is `ready` again, as ioredis
 * connections report them: one line per outage, not one per reconnection attempt.
 */
export function sayConnectionFailures(connection: Pick<EventEmitter, 'on'>, say: (message: string) => void): void {
  const failures = new DistinctFailures(say);
  connection.on('error', (error: Error) => failures.failed(error.message));
  connection.on('ready', () => failures.cleared());
}

/** A recovery's log line: `<what> again after 12.3 s of failures (the last: <failure>)`. */
export function recoveryLine(what: string, { lastFailure, failingForMs }: Recovery): string {
  return `${what} again after ${(failingForMs / 1000).toFixed(1)} s of failures (the last: ${lastFailure})`;
}
