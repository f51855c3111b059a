import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
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
  /** Starts it again on the same port and store with another login (stopped first if running). */
  restartWith(options: { login?: NatsLogin }): Promise<void>;
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

/**
 * Credentials the server asks every client for: a user and a password (in an account of their own when
 * `account` names one, JetStream enabled in it), or a token.
 */
export type NatsLogin = { user: string; pass: string; account?: string } | { token: string };

/** Starts `nats-server` (Debian's, or NATS_SERVER_BIN) on a free port, with JetStream and a login when asked. */
export async function startPrivateNats(options: { jetstream?: boolean; login?: NatsLogin } = {}): Promise<PrivateNats> {
  const port = await freePort();
  const store = mkdtempSync(path.join(tmpdir(), 'nats-'));
  const serverWith = (login: NatsLogin | undefined) =>
    serverProcess(process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server', serverArgs(port, store, options.jetstream === true, login), () => listening(port));
  let server = serverWith(options.login);
  await server.start();
  return {
    url: `nats://127.0.0.1:${port}`,
    stop: () => server.stop(),
    start: () => server.start(),
    async restartWith({ login }) {
      await server.stop();
      server = serverWith(login);
      await server.start();
    },
    async close() {
      await server.stop();
      rmSync(store, { recursive: true, force: true });
    },
  };
}

function serverArgs(port: number, store: string, jetstream: boolean, login: NatsLogin | undefined): string[] {
  if (login !== undefined && 'account' in login && login.account !== undefined) {
    // Accounts are set in a configuration file only.
    const file = path.join(store, 'nats.conf');
    writeFileSync(file, accountConfig(port, jetstream ? store : undefined, login.account, login));
    return ['-c', file];
  }
  const flags = login === undefined ? [] : 'token' in login ? ['--auth', login.token] : ['--user', login.user, '--pass', login.pass];
  return ['-a', '127.0.0.1', '-p', String(port), ...(jetstream ? ['-js', '-sd', store] : []), ...flags];
}

/** A server on 127.0.0.1:`port` whose one user lives in `account` (JetStream there when given a store). */
function accountConfig(port: number, jetstreamStore: string | undefined, account: string, login: { user: string; pass: string }): string {
  const quoted = JSON.stringify;
  return [
    `host: "127.0.0.1"`,
    `port: ${port}`,
    ...(jetstreamStore === undefined ? [] : [`jetstream { store_dir: ${quoted(jetstreamStore)} }`]),
    `accounts { ${quoted(account)} { ${jetstreamStore === undefined ? '' : 'jetstream: enabled, '}users: [ { user: ${quoted(login.user)}, password: ${quoted(login.pass)} } ] } }`,
    '',
  ].join('\n');
}
