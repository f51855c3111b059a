import type { EventEmitter } from 'node:events';

/**
 * Says a failure when it first happens and again only when it changes, until a success clears it: an
 * outage is one log line, not one per reconnection attempt or per request meeting it.
 */
export class DistinctFailures {
  private last = '';

  constructor(private readonly say: (message: string) => void) {}

  failed(message: string): void {
    if (message !== this.last) this.say(message);
    this.last = message;
  }

  cleared(): void {
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
