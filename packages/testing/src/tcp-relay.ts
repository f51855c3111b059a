import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { freePort } from './ports';

/** A database reached through a relay of the test's own: `url` names it through the relay. */
export interface DatabaseRelay {
  url: string;
  /** Starts relaying; until then (and after `close`) connections to `url` are refused. */
  open(): Promise<void>;
  close(): Promise<void>;
  /**
   * From now on, keeps what the server sends on every connection instead of passing it on: a query then
   * runs on the real PostgreSQL, its answer waiting in the relay, as a slow network or a stalled process
   * would keep it.
   */
  hold(): void;
  /** What is held, in arrival order (all connections). */
  held(): Buffer;
  /** Passes on what is held, in order, and relays as usual again. */
  release(): void;
  /**
   * Breaks every connection now (what is held is lost), as a network cut would; new connections are
   * relayed as usual, without holding. `client`: only the client's end breaks, and the server's stays
   * open, as when the server has not noticed the cut yet.
   */
  cut(ends?: 'both' | 'client'): void;
}

/**
 * The database of `databaseUrl` behind a TCP relay on a free port of 127.0.0.1: a database that is
 * down, or comes back, for a test that opens or closes the relay, or one whose answers are late.
 */
export async function databaseRelay(databaseUrl: string): Promise<DatabaseRelay> {
  const target = new URL(databaseUrl);
  const port = await freePort();
  const relayed = new URL(databaseUrl);
  relayed.host = `127.0.0.1:${port}`;
  let server: Server | undefined;
  let holding = false;
  const queue: { to: Socket; data: Buffer }[] = [];
  const clients = new Set<Socket>();
  const servers = new Set<Socket>();
  return {
    url: relayed.toString(),
    open: () =>
      new Promise((resolve) => {
        server = createServer((socket) => {
          const upstream = createConnection(Number(target.port || 5432), target.hostname);
          for (const [end, set] of [[socket, clients], [upstream, servers]] as const) {
            set.add(end);
            end.on('close', () => set.delete(end));
          }
          socket.pipe(upstream);
          upstream.on('data', (data: Buffer) => (holding ? queue.push({ to: socket, data }) : socket.write(data)));
          upstream.on('end', () => socket.end());
          // Not on a plain destroy (cut): the server's end stays open until it is cut too.
          socket.on('error', () => upstream.destroy());
          upstream.on('error', () => socket.destroy());
        });
        server.listen(port, '127.0.0.1', () => resolve());
      }),
    close: () => new Promise((resolve) => (server ? server.close(() => resolve()) : resolve())),
    hold: () => {
      holding = true;
    },
    held: () => Buffer.concat(queue.map((chunk) => chunk.data)),
    release: () => {
      holding = false;
      for (const { to, data } of queue.splice(0)) to.write(data);
    },
    cut: (ends = 'both') => {
      holding = false;
      queue.splice(0);
      for (const end of ends === 'both' ? [...clients, ...servers] : clients) end.destroy();
    },
  };
}
