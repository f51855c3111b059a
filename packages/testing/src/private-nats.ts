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

/** Starts `nats-server` (Debian's, or NATS_SERVER_BIN) on a free port, with JetStream, a login and a smaller `max_payload` when asked. */
export async function startPrivateNats(options: { jetstream?: boolean; login?: NatsLogin; maxPayload?: number } = {}): Promise<PrivateNats> {
  const port = await freePort();
  const store = mkdtempSync(path.join(tmpdir(), 'nats-'));
  const serverWith = (login: NatsLogin | undefined) => {
    // Accounts and max_payload are set in a configuration file only, so every server gets one.
    const file = path.join(store, 'nats.conf');
    writeFileSync(file, serverConfig(port, options.jetstream === true ? store : undefined, login, options.maxPayload));
    return serverProcess(process.env.NATS_SERVER_BIN ?? '/usr/sbin/nats-server', ['-c', file], () => listening(port));
  };
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

/** A server on 127.0.0.1:`port`; a user in an account of its own (JetStream enabled there) when the login names one. */
function serverConfig(port: number, jetstreamStore: string | undefined, login: NatsLogin | undefined, maxPayload: number | undefined): string {
  const quoted = JSON.stringify;
  const lines = [`host: "127.0.0.1"`, `port: ${port}`];
  if (maxPayload !== undefined) lines.push(`max_payload: ${maxPayload}`);
  if (jetstreamStore !== undefined) lines.push(`jetstream { store_dir: ${quoted(jetstreamStore)} }`);
  if (login !== undefined && 'token' in login) lines.push(`authorization { token: ${quoted(login.token)} }`);
  else if (login?.account !== undefined) {
    const user = `users: [ { user: ${quoted(login.user)}, password: ${quoted(login.pass)} } ]`;
    lines.push(`accounts { ${quoted(login.account)} { ${jetstreamStore === undefined ? '' : 'jetstream: enabled, '}${user} } }`);
  } else if (login !== undefined) lines.push(`authorization { user: ${quoted(login.user)}, password: ${quoted(login.pass)} }`);
  return `${lines.join('\n')}\n`;
}
