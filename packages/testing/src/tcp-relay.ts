import { createConnection, createServer } from 'node:net';

export interface TcpRelay {
  close(): Promise<void>;
}

/**
 * A TCP relay listening on `port` (127.0.0.1) to `target` (`host:port`): a database or broker "that
 * comes back" for a test that starts the relay later, the port refusing connections until then.
 */
export function openTcpRelay(port: number, target: { host: string; port: number }): Promise<TcpRelay> {
  const server = createServer((socket) => {
    const upstream = createConnection(target.port, target.host);
    socket.pipe(upstream).pipe(socket);
    socket.on('error', () => upstream.destroy());
    upstream.on('error', () => socket.destroy());
  });
  return new Promise((resolve) =>
    server.listen(port, '127.0.0.1', () => resolve({ close: () => new Promise<void>((done) => server.close(() => done())) })),
  );
}
