import { connect } from 'nats';
import { startPrivateNats, until, type PrivateNats } from '@exchange/testing';
import { exitWhenClosedForGood } from '../src/nats/closed-for-good';

describe('exitWhenClosedForGood', () => {
  let nats: PrivateNats;
  beforeAll(async () => {
    nats = await startPrivateNats({ login: { user: 'gateway', pass: 'before' } });
  });
  afterAll(() => nats.close());

  it('exits when the connection closes other than by its owner, saying why; not when the owner closes it', async () => {
    const lines: string[] = [];
    let exits = 0;
    const lost = await connect({ servers: nats.url, user: 'gateway', pass: 'before', maxReconnectAttempts: -1, reconnectTimeWait: 50 });
    exitWhenClosedForGood(lost, 'the NATS connection', () => false, (line) => lines.push(line), () => exits++);
    // A server that no longer takes the credentials: nats.js gives up after the same refusal twice,
    // whatever its reconnection settings.
    await nats.restartWith({ login: { user: 'gateway', pass: 'after' } });
    await until(async () => (exits > 0 ? true : undefined), 10_000, 'the exit');
    expect(lines).toEqual([expect.stringMatching(/^the NATS connection closed for good \(.*Authorization Violation.*\); exiting$/i)]);

    const owned = await connect({ servers: nats.url, user: 'gateway', pass: 'after' });
    let closing = false;
    exitWhenClosedForGood(owned, 'the owned connection', () => closing, (line) => lines.push(line), () => exits++);
    closing = true;
    await owned.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(exits).toBe(1);
  });
});
