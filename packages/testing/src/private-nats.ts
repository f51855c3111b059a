import { mkdtempSync, rmSync } from 'node:fs';
import { connect as connectTcp } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from './ports';
import { serverProcess } from './server-process';

/** A NATS server of a test's own, to stop and start again: the machine's is shared by every test run. */
export interface PrivateNats {
  /** Without the login, if it asks for one. */
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its JetStream store. */
  close(): Promise<void>;
}

async function listening(port: number): Promise<void> {
  for (let i = 0; i < 200; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = connectTcp(port, '127.0.0.1', () => {
        socket.destroy();
        resolve(true);
      }).on('error', () => resolve(false));
    });
    if (up) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`nats-server did not listen on ${port}`);
}

/** Credentials the server asks every client for: a user and a password, or a token. */
export type NatsLogin = { user: string; pass: string } | { token: string };

/** Starts `nats-server` (Debian's, or NATS_SERVER_BIN) on a free port, with JetStream and a login when asked. */
export async function startPrivateNats(options: { jetstream?: boolean; login?: NatsLogin } = {}): Promise<PrivateNats> {
  const port = await freePort();
  const store = mkdtempSync(path.join(tmpdir(), 'nats-'));
  const login = options.login === undefined ? [] : 'token' in options.login ? ['--auth', options.login.token] : ['--user', options.login.user, '--pass', options.login.pass];
  const args = ['-a', '127.0.0.1', '-p', String(port), ...(options.jetstream ? ['-js', '-sd', store] : []), ...login];
  const server = serverProcess(process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server', args, () => listening(port));
  await server.start();
  return {
    url: `nats://127.0.0.1:${port}`,
    stop: server.stop,
    start: server.start,
    async close() {
      await server.stop();
      rmSync(store, { recursive: true, force: true });
    },
  };
}
