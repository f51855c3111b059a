import { createConnection, createServer, type Socket } from 'node:net';
import { freePort } from '@exchange/testing';

/**
 * A database reached through a TCP relay that can hold back what the server sends: a query then runs on
 * the real PostgreSQL, its answer waiting in the relay until the test releases it, as a slow network or
 * a stalled process would keep it. (A candidate for @exchange/testing, next to `databaseRelay`.)
 */
export interface HoldingRelay {
  /** The database URL through the relay. */
  url: string;
  /** From now on, keeps what the server sends on every connection instead of passing it on. */
  hold(): void;
  /** What is held, in arrival order (all connections). */
  held(): Buffer;
  /** Passes on what is held, in order, and relays as usual again. */
  release(): void;
  close(): Promise<void>;
}

export async function holdingDatabaseRelay(databaseUrl: string): Promise<HoldingRelay> {
  const target = new URL(databaseUrl);
  const port = await freePort();
  const relayed = new URL(databaseUrl);
  relayed.host = `127.0.0.1:${port}`;
  let holding = false;
  const queue: { to: Socket; data: Buffer }[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection(Number(target.port || 5432), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    }
    client.pipe(upstream);
    upstream.on('data', (data: Buffer) => (holding ? queue.push({ to: client, data }) : client.write(data)));
    upstream.on('end', () => client.end());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: relayed.toString(),
    hold: () => {
      holding = true;
    },
    held: () => Buffer.concat(queue.map((chunk) => chunk.data)),
    release: () => {
      holding = false;
      for (const { to, data } of queue.splice(0)) to.write(data);
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
