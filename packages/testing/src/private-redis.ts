import { Redis } from 'ioredis';
import { freePort } from './ports';
import { serverProcess } from './server-process';
import { until } from './until';

/**
 * A Redis server of a test's own, keeping nothing on disk, to pause, flush, stop and start again: the
 * machine's Redis is shared by the running exchange and every other test file, which a `CLIENT PAUSE`
 * or a restart there would freeze or empty too.
 */
export interface PrivateRedis {
  port: number;
  url: string;
  /** Stops the server (SIGTERM) and waits for it to exit: its data is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same port, empty, and waits until it answers. */
  start(): Promise<void>;
  /** Stops it for good. */
  close(): Promise<void>;
  /** Freezes the server (SIGSTOP): connections stay open, and nothing is answered until `thaw`. */
  freeze(): void;
  /** Lets a frozen server run again (SIGCONT). */
  thaw(): void;
}

async function answering(port: number): Promise<void> {
  await until(
    async () => {
      const probe = new Redis({ port, host: '127.0.0.1', lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 0, retryStrategy: () => null });
      probe.on('error', () => undefined);
      try {
        await probe.connect();
        return (await probe.ping()) === 'PONG' ? true : undefined;
      } catch {
        return undefined;
      } finally {
        // A refused connection has ended the probe (no retries); disconnecting it then armed ioredis's 2 s
        // timer for a socket already gone, which kept jest from exiting after the tests.
        if (probe.status !== 'end') probe.disconnect();
      }
    },
    10_000,
    `redis-server answering on ${port}`,
  );
}

/** Starts `redis-server` (or REDIS_SERVER_BIN) on a free loopback port, without persistence. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const server = serverProcess(
    process.env.REDIS_SERVER_BIN ?? 'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    () => answering(port),
  );
  await server.start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start: server.start,
    stop: server.stop,
    close: server.stop,
    freeze: () => server.signal('SIGSTOP'),
    thaw: () => server.signal('SIGCONT'),
  };
}
