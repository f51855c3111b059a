import { createConnection, createServer, type Server } from 'node:net';
import { freePort } from './ports';

/** A database reached through a relay of the test's own: `url` names it through the relay. */
export interface DatabaseRelay {
  url: string;
  /** Starts relaying; until then (and after `close`) connections to `url` are refused. */
  open(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The database of `databaseUrl` behind a TCP relay on a free port of 127.0.0.1: a database that is
 * down, or comes back, for a test that opens or closes the relay.
 */
export async function databaseRelay(databaseUrl: string): Promise<DatabaseRelay> {
  const target = new URL(databaseUrl);
  const port = await freePort();
  const relayed = new URL(databaseUrl);
  relayed.host = `127.0.0.1:${port}`;
  let server: Server | undefined;
  return {
    url: relayed.toString(),
    open: () =>
      new Promise((resolve) => {
        server = createServer((socket) => {
          const upstream = createConnection(Number(target.port || 5432), target.hostname);
          socket.pipe(upstream).pipe(socket);
          socket.on('error', () => upstream.destroy());
          upstream.on('error', () => socket.destroy());
        });
        server.listen(port, '127.0.0.1', () => resolve());
      }),
    close: () => new Promise((resolve) => (server ? server.close(() => resolve()) : resolve())),
  };
}
