import { EventEmitter } from 'node:events';
import { DistinctFailures, recoveryLine, sayConnectionFailures, type Recovery } from '../src/logging/distinct-failures';

describe('DistinctFailures', () => {
  it('says a failure once until it changes or a success clears it', () => {
    const said: string[] = [];
    const failures = new DistinctFailures((message) => said.push(message));
    for (const message of ['ECONNREFUSED', 'ECONNREFUSED', 'ECONNREFUSED', 'ETIMEDOUT', 'ETIMEDOUT']) failures.failed(message);
    expect(said).toEqual(['ECONNREFUSED', 'ETIMEDOUT']);
    failures.cleared();
    failures.failed('ETIMEDOUT');
    expect(said).toEqual(['ECONNREFUSED', 'ETIMEDOUT', 'ETIMEDOUT']);
  });

  it('says the first success after failures, with the last failure and how long they lasted, once', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    try {
      const recoveries: Recovery[] = [];
      const failures = new DistinctFailures(() => undefined, (recovery) => recoveries.push(recovery));
      failures.cleared();
      expect(recoveries).toEqual([]);
      failures.failed('ECONNREFUSED');
      jest.advanceTimersByTime(4_000);
      failures.failed('ETIMEDOUT');
      jest.advanceTimersByTime(8_250);
      failures.cleared();
      failures.cleared();
      expect(recoveries).toEqual([{ lastFailure: 'ETIMEDOUT', failingForMs: 12_250 }]);
      expect(recoveryLine('outbox checkpoints written', recoveries[0]!)).toBe('outbox checkpoints written again after 12.3 s of failures (the last: ETIMEDOUT)');
      // A later outage is timed from its own first failure.
      failures.failed('ECONNRESET');
      jest.advanceTimersByTime(500);
      failures.cleared();
      expect(recoveries[1]).toEqual({ lastFailure: 'ECONNRESET', failingForMs: 500 });
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('sayConnectionFailures', () => {
  it("says a connection's errors once each until it is ready again", () => {
    const said: string[] = [];
    const connection = new EventEmitter();
    sayConnectionFailures(connection, (message) => said.push(message));
    for (let i = 0; i < 3; i++) connection.emit('error', new Error('connect ECONNREFUSED'));
    connection.emit('error', new Error('connection reset'));
    connection.emit('ready');
    connection.emit('error', new Error('connection reset'));
    expect(said).toEqual(['connect ECONNREFUSED', 'connection reset', 'connection reset']);
  });
});
