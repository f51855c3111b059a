import { DistinctFailures } from '../src/logging/distinct-failures';

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
