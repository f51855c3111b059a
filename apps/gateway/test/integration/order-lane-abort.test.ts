import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { eventually, sleep } from '@exchange/testing';
import type { L2Authenticator } from '../../src/auth/l2-auth.guard';
import type { AccessLine } from '../../src/http/lane';
import { orderLane } from '../../src/trading/order-lane';

/**
 * The order lane on a real HTTP server, with a client that goes away in the middle of its body. The
 * request never reaches parsing, authentication or the engine, so the lane gets none of them; of the
 * authenticator only the failure count of the client's address, which such a request adds to.
 */
describe('the order lane when the client goes away mid-body', () => {
  const lines: AccessLine[] = [];
  const unauthenticated: string[] = [];
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const unused = undefined as never;
    const failures = {
      refuseFailing: (raw: IncomingMessage) => raw.socket.remoteAddress,
      refusedUnauthenticated: (party: string) => unauthenticated.push(party),
    } as unknown as L2Authenticator;
    const lane = orderLane(unused, failures, unused, 65_536, (line) => lines.push(line));
    server = createServer((request, response) => {
      if (!lane(request, response)) response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    port = typeof address === 'object' && address ? address.port : 0;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('logs a 400, not a 503 for an unavailable database', async () => {
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write('POST /order HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"order":');
    await sleep(50);
    socket.destroy();
    await eventually(() => lines.length > 0, 'the access line of the aborted request');
    expect(lines).toEqual([expect.objectContaining({ method: 'POST', url: '/order', status: 400 })]);
    expect(unauthenticated).toEqual(['127.0.0.1']);
  });
});
