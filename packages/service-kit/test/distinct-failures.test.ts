import { EventEmitter } from 'node:events';
import { DistinctFailures, sayConnectionFailures } from '../src/logging/distinct-failures';

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
