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
