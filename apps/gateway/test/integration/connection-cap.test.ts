import { createConnection, type Socket } from 'node:net';
import { startAuthGateway, type AuthGateway } from '../support/auth-harness';

/** A raw keep-alive connection that has been answered once (so the gateway surely counts it). */
async function answeredConnection(port: number): Promise<Socket> {
  const socket = createConnection({ host: '127.0.0.1', port });
  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.once('data', () => resolve());
    socket.write('GET /ok HTTP/1.1\r\nHost: x\r\n\r\n');
  });
  return socket;
}

/** Whether a new connection is answered: a refused one is closed before any answer. */
async function answered(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/ok`).then(
    (response) => response.status === 200,
    () => false,
  );
}

describe('the gateway under MAX_CLIENT_CONNECTIONS (real NATS, Redis, PostgreSQL)', () => {
  let gw: AuthGateway;

  beforeAll(async () => {
    gw = await startAuthGateway('gw_cap', { MAX_CLIENT_CONNECTIONS: '3' });
  });
  afterAll(() => gw.close());

  it('closes connections past the cap over every surface, keeps answering the open ones, and takes new ones once one closes', async () => {
    const { combined, clob } = gw.gateway.ports;
    const held = [await answeredConnection(combined), await answeredConnection(combined), await answeredConnection(clob)];
    expect(await answered(combined)).toBe(false);
    expect(await answered(clob)).toBe(false);
    // The connections it holds are served as before.
    const again = await new Promise<string>((resolve) => {
      held[0]!.once('data', (chunk: Buffer) => resolve(chunk.toString()));
      held[0]!.write('GET /ok HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    expect(again).toMatch(/^HTTP\/1\.1 200/);

    const closed = new Promise((resolve) => held[2]!.once('close', resolve));
    held[2]!.destroy();
    await closed;
    let taken = false;
    for (let tries = 0; tries < 20 && !taken; tries++) taken = await answered(combined);
    expect(taken).toBe(true);
    for (const socket of held) socket.destroy();
  });
});
