import { spawn, type ChildProcess } from 'node:child_process';
import { Redis } from 'ioredis';
import { freePort, until } from '@exchange/testing';

/**
 * A Redis server of a test's own, keeping nothing on disk, to pause, flush, stop and start again: the
 * machine's Redis is shared by the running exchange and every other test file, which a `CLIENT PAUSE`
 * or a restart there would freeze or empty too. (A candidate for @exchange/testing, next to
 * `startPrivateNats`.)
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
        probe.disconnect();
      }
    },
    10_000,
    `redis-server answering on ${port}`,
  );
}

/** Starts `redis-server` (or REDIS_SERVER_BIN) on a free loopback port, without persistence. */
export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let server: ChildProcess | undefined;
  const start = async () => {
    server = spawn(process.env.REDIS_SERVER_BIN ?? 'redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], {
      stdio: 'ignore',
    });
    await answering(port);
  };
  const stop = async () => {
    const running = server;
    if (!running || running.exitCode !== null || running.signalCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    // A frozen server would never act on the SIGTERM.
    running.kill('SIGCONT');
    running.kill('SIGTERM');
    await exited;
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    start,
    stop,
    close: stop,
    freeze: () => void server?.kill('SIGSTOP'),
    thaw: () => void server?.kill('SIGCONT'),
  };
}
