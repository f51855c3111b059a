import type { ConnectionOptions } from 'nats';

/** Where NATS is and how to log in to it: nats.js' connection options read from one `NATS_URL`. */
export type NatsServerOptions = Pick<ConnectionOptions, 'servers' | 'user' | 'pass' | 'token' | 'tls'>;

const SCHEMES = new Set(['nats:', 'tls:']);

/**
 * `NATS_URL` (one server or a comma list, `nats://` or `tls://`) as nats.js' options. Credentials go in a
 * URL's user part, as for PostgreSQL and Redis: `nats://user:password@host:4222` or `nats://token@host:4222`.
 * nats.js ignores that part, so a NATS server that asks for credentials refused every service with
 * "Authorization Violation" whatever the URL said. The addresses are passed on without it, so the password
 * stays out of nats.js' connection errors too. nats.js uses TLS whenever the server requires or offers it;
 * a `tls://` server makes it required (`tls: {}`): a server, or anything between, that offers none is
 * refused instead of sent the password in the clear. An empty password (`user:@`) is refused rather than
 * read as a token. Throws, without the credentials in the message, when a URL cannot be used.
 */
export function natsServerOptions(natsUrl: string): NatsServerOptions {
  const entries = natsUrl.split(',').map((entry) => entry.trim());
  if (entries.some((entry) => entry === '')) throw new Error('NATS_URL must name at least one server, with no empty entry in its comma list');
  const servers: string[] = [];
  const logins = new Set<string>();
  let login: Pick<NatsServerOptions, 'user' | 'pass' | 'token'> = {};
  entries.forEach((entry, index) => {
    const written = entry.includes('://') ? entry : `nats://${entry}`;
    const url = parsed(written, index);
    if (url.username || url.password) {
      login = credentials(written, url, index);
      logins.add(JSON.stringify(login));
    }
    servers.push(`${url.protocol}//${url.host}`);
  });
  // nats.js logs in to every server of the list with one set of credentials.
  if (logins.size > 1) throw new Error('NATS_URL gives different credentials for its servers: nats.js uses one set for all of them');
  const tls = servers.some((server) => server.startsWith('tls:')) ? { tls: {} } : {};
  return { servers, ...login, ...tls };
}

function parsed(entry: string, index: number): URL {
  let url: URL;
  try {
    url = new URL(entry);
  } catch {
    throw new Error(`NATS_URL's server ${index + 1} is not a URL (nats://[user:password@]host[:port])`);
  }
  if (!SCHEMES.has(url.protocol)) throw new Error(`NATS_URL's server ${index + 1} must be nats:// or tls://, not ${url.protocol}//`);
  if (!url.hostname) throw new Error(`NATS_URL's server ${index + 1} has no host`);
  if ((url.pathname && url.pathname !== '/') || url.search || url.hash) {
    throw new Error(`NATS_URL's server ${index + 1} must be only [user:password@]host[:port], with no path or query`);
  }
  return url;
}

/**
 * A user and a password, or a token alone (nats-server's `--user`/`--pass` or `--auth`). `written` is the
 * entry as given: the parsed URL tells `user:@` (refused) from `user@` (a token) no more.
 */
function credentials(written: string, url: URL, index: number): Pick<NatsServerOptions, 'user' | 'pass' | 'token'> {
  if (/^[a-z]+:\/\/[^@/]*:@/i.test(written)) throw new Error(`NATS_URL's server ${index + 1} has an empty password`);
  let user: string;
  let pass: string;
  try {
    user = decodeURIComponent(url.username);
    pass = decodeURIComponent(url.password);
  } catch {
    throw new Error(`NATS_URL's server ${index + 1} has credentials that are not valid percent-encoding`);
  }
  if (!user) throw new Error(`NATS_URL's server ${index + 1} has a password but no user`);
  return url.password ? { user, pass } : { token: user };
}
