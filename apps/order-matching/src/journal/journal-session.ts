import { setTimeout as sleep } from 'node:timers/promises';
import { Logger } from '@nestjs/common';
import { Client, DatabaseError, type ClientBase, type QueryConfig, type QueryResult, type QueryResultRow } from 'pg';
import { errorMessage } from '@exchange/service-kit';

/**
 * The advisory lock that makes one engine the journal's only writer (advisory locks belong to their
 * database, so each deployment's engine has its own). Not Prisma's migration lock, 72707369.
 */
const JOURNAL_LOCK_KEY = 5_287_311_041_903_119n;

/**
 * The server's keepalive on the engine's sessions: a peer that stopped answering (its node gone) is found
 * in about 30 s, and its session ends, with the journal's lock and any open transaction (PostgreSQL's
 * default is the system's, about two hours). Set per session; any user may.
 */
export const SESSION_KEEPALIVES = '-c tcp_keepalives_idle=10 -c tcp_keepalives_interval=5 -c tcp_keepalives_count=4';

/** Raised every time a writer takes the journal; a session that lost its connection checks it is still its own. */
const EPOCH_KEY = 'journal-epoch';

/** How often a waiting engine tries the lock again, and says again who holds it. */
const RETRY_MS = 1_000;
/** A connection attempt that hangs (a network cut) fails after this, and the batch is tried again. */
const CONNECT_TIMEOUT_MS = 10_000;
/**
 * A statement not answered in this long (a hung server, or a network dropping packets silently, which the
 * kernel retries for about 15 minutes) is taken as a lost connection: the engine refuses new commands and
 * settles the batch (group-commit.ts). Until the thirty-fourth session it went on running commands into
 * memory behind the batch, each told after 5 s that it may have been made and all made when the server
 * came back, however late (found by a probe stopping the journal's backend).
 */
const ANSWER_TIMEOUT_MS = 10_000;
const REPORT_EVERY_MS = 60_000;

/**
 * The application_name of one of the engine's sessions (`role`: journal, queries), by which an operator
 * finds and ends a lost process's sessions (infra/README.md); PostgreSQL keeps 63 bytes of it.
 */
export function sessionName(role: string, holder: string): string {
  return `order-matching ${role} ${holder}`.slice(0, 63);
}

/** What the journal's statements need; a pg Pool has it too (tests write batches through one). */
export interface Queryable {
  query<R extends QueryResultRow>(config: QueryConfig): Promise<QueryResult<R>>;
}

/**
 * Another engine took the journal while this one's connection was down: this one must stop writing and
 * exit. Its batch was not written (the statement never left).
 */
export class JournalTakenError extends Error {}

/** No journal connection could be opened again (the network, the server): the batch's statement never left. */
export class JournalNotOpenedError extends Error {}

/**
 * The journal's connection was lost while a statement ran (PostgreSQL restarted or ended the session, the
 * network cut it): the statement may have committed. Only a connection that holds the lock again can tell
 * (group-commit.ts asks it): the old session's transaction has ended by then, one way or the other.
 */
export class JournalInDoubtError extends Error {}

/** SQLSTATE classes after which the statement's outcome is not known: the connection, the server's own failures. */
const IN_DOUBT_CLASSES = /^(08|57P0|58|XX)/;

/**
 * Whether PostgreSQL refused a statement on a connection it kept (an ERROR): a statement outside a
 * transaction block is its own transaction, rolled back. Anything else (no answer, the socket closed, the
 * session ended: class 08, 57P0x; a FATAL or PANIC, an I/O or internal failure of the server, which may
 * come after the commit was written: classes 58, XX) leaves the statement's outcome unknown.
 */
export function refusedByServer(error: unknown): boolean {
  if (!(error instanceof DatabaseError) || error.severity === 'FATAL' || error.severity === 'PANIC') return false;
  return !IN_DOUBT_CLASSES.test(error.code ?? '');
}

/** A read-only server (the old primary after a failover): the next statement connects again, perhaps to the new one. */
const READ_ONLY = '25006';

/**
 * The journal's own connection, which holds the journal's advisory lock: a second engine on the same
 * database (a force-deleted pod's replacement, a compose scaled to two) waits at start until the first
 * is gone, instead of deleting the first's catalog consumer and writing beside it (found by a deployment
 * probe: two engines evicted each other in a loop). Each claim raises the epoch in `settings`; a
 * connection lost later is opened again only if the lock can be taken back and the epoch is still this
 * engine's, so that an engine cut off from the database never writes after another took over, even one
 * that has stopped again since.
 *
 * Group commit writes one batch at a time, so one connection is enough, and a write never waits for a
 * pooled connection held by a query or a checkpoint. Its statements run on a generic plan: PostgreSQL's
 * default planned the batch statement again at every execution (a custom plan sees each array's length
 * and so always looked cheaper), a fifth of the journal's CPU (docs/performance.md, seventh session). It
 * stays open when idle: a pool that closed it after 10 s had to connect again for the next batch, which
 * fails while the server is out of connections (found by a resource probe).
 */
export class JournalSession implements Queryable {
  private readonly logger = new Logger(JournalSession.name);
  private client?: Promise<Client>;
  private epoch?: string;
  /** Set by `end`: a claim still waiting gives up. */
  private ended = false;

  /** `holder` names this process in `pg_stat_activity` (application_name), for an operator looking for it. */
  constructor(
    private readonly databaseUrl: string,
    private readonly holder: string,
    private readonly answerTimeoutMs = ANSWER_TIMEOUT_MS,
  ) {}

  /** The epoch this engine's claim set; undefined before `claim`. */
  get claimedEpoch(): string | undefined {
    return this.epoch;
  }

  /**
   * Waits until no other session holds the journal's lock, takes it and raises the epoch. Fails like a
   * query when the database is unavailable (the caller waits for it: untilDatabaseAvailable).
   */
  async claim(): Promise<void> {
    let reportedAt = -Infinity;
    for (;;) {
      if (this.ended) throw new Error('the journal session was ended while it waited for the journal');
      // One connection for the whole wait: until the thirty-fifth session each try opened one (a backend
      // started and ended every second for as long as the other engine ran).
      const client = await this.open();
      try {
        for (;;) {
          // Ended meanwhile: not taken (and the lock let go with the connection).
          if (this.ended) throw new Error('the journal session was ended while it waited for the journal');
          if (await this.tryLock(client)) {
            this.epoch = await this.raiseEpoch(client);
            this.adopt(client);
            if (reportedAt > -Infinity) this.logger.log('took the journal: the other engine is gone');
            return;
          }
          if (Date.now() - reportedAt >= REPORT_EVERY_MS) {
            reportedAt = Date.now();
            this.logger.warn(`another engine writes this database's journal (${await this.lockHolder(client)}); waiting until it stops`);
          }
          await sleep(RETRY_MS);
        }
      } catch (error) {
        await client.end().catch(() => undefined);
        // A read-only server (the old primary after a failover): waited out on a new connection, which
        // may reach the new primary.
        if ((error as { code?: unknown }).code !== READ_ONLY) throw error;
        this.logger.warn(`the journal's server is read-only; waiting for a writable one: ${errorMessage(error)}`);
        await sleep(RETRY_MS);
      }
    }
  }

  /** Raises the epoch in `settings` (the lock held): a session of an older claim sees it is not its own any more. */
  private async raiseEpoch(client: Client): Promise<string> {
    const epoch = await client.query<{ value: string }>(
      `INSERT INTO settings (key, value) VALUES ('${EPOCH_KEY}', '1')
       ON CONFLICT (key) DO UPDATE SET value = (settings.value::bigint + 1)::text RETURNING value`,
    );
    return epoch.rows[0]!.value;
  }

  /**
   * For a write on another connection (the query pool's): holds the epoch's row (FOR SHARE) in that
   * connection's open transaction while the epoch is still this engine's. A takeover's claim, which
   * raises the epoch, waits for that transaction, so the write lands before the takeover (and the new
   * engine loads it) or not at all. False once another engine has claimed the journal.
   */
  async holdEpoch(client: ClientBase): Promise<boolean> {
    const held = await client.query(`SELECT 1 FROM settings WHERE key = '${EPOCH_KEY}' AND value = $1 FOR SHARE`, [this.epoch ?? '']);
    return held.rowCount === 1;
  }

  async query<R extends QueryResultRow>(config: QueryConfig): Promise<QueryResult<R>> {
    const opened = (this.client ??= this.reopen());
    const client = await opened;
    try {
      // Per statement, not for the claim's (which may wait behind a frozen engine's fenced write for up to
      // 30 s); node-pg reads it from a query's config too, though its types name it only for a client's.
      return await client.query<R>({ ...config, query_timeout: this.answerTimeoutMs } as QueryConfig);
    } catch (error) {
      if (refusedByServer(error)) {
        if ((error as DatabaseError).code === READ_ONLY) this.drop(opened, client, errorMessage(error));
        throw error;
      }
      this.drop(opened, client, errorMessage(error));
      throw new JournalInDoubtError(`the journal's connection was lost during a statement: ${errorMessage(error)}`, { cause: error });
    }
  }

  /** Ends the connection, and any claim still waiting; no query opens another after it. */
  async end(): Promise<void> {
    this.ended = true;
    const client = this.client;
    this.client = undefined;
    if (client) await (await client.catch(() => undefined))?.end();
  }

  /** After a lost connection: the lock again, and no claim by another engine meanwhile. */
  private reopen(): Promise<Client> {
    if (this.ended) return Promise.reject(new Error('the journal session was ended'));
    if (this.epoch === undefined) return Promise.reject(new Error('the journal was not claimed'));
    const reopening: Promise<Client> = this.reopenClaimed().then(
      (client) => this.adopt(client),
      (error: unknown) => {
        if (this.client === reopening) this.client = undefined;
        throw error;
      },
    );
    return reopening;
  }

  private async reopenClaimed(): Promise<Client> {
    const client = await this.open().catch((error: unknown) => {
      throw new JournalNotOpenedError(`could not open the journal's connection again: ${errorMessage(error)}`, { cause: error });
    });
    try {
      const locked = await this.tryLock(client);
      const epoch = (await client.query<{ value: string }>(`SELECT value FROM settings WHERE key = '${EPOCH_KEY}'`)).rows[0]?.value;
      if (epoch !== this.epoch) throw new JournalTakenError(`another engine wrote the journal meanwhile (epoch ${epoch}, this engine's ${this.epoch})`);
      // Held, and the epoch still this engine's: most likely its old session, which the server has not
      // ended yet (a network cut: until its keepalives fail), or another engine between its lock and its
      // epoch. Tried again: the first lets go, the second shows its epoch.
      if (!locked) throw new JournalNotOpenedError(`the journal's lock is still held (${await this.lockHolder(client)})`);
      if (this.ended) throw new Error('the journal session was ended');
    } catch (error) {
      await client.end().catch(() => undefined);
      // Whatever else failed here, the batch's statement never left.
      throw error instanceof JournalTakenError ? error : new JournalNotOpenedError(`could not check the journal again: ${errorMessage(error)}`, { cause: error });
    }
    this.logger.log("journal connection open again, still this engine's");
    return client;
  }

  private async open(): Promise<Client> {
    const client = new Client({
      connectionString: this.databaseUrl,
      application_name: sessionName('journal', this.holder),
      options: `-c plan_cache_mode=force_generic_plan -c jit=off ${SESSION_KEEPALIVES}`,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    });
    // Until adopted, a failure reaches the caller through the query it breaks.
    client.on('error', () => undefined);
    await client.connect();
    return client;
  }

  /** Kept as the journal's connection until it fails; the next query opens another (`reopen`). */
  private adopt(client: Client): Client {
    if (this.ended) {
      void client.end().catch(() => undefined);
      throw new Error('the journal session was ended');
    }
    const promise = Promise.resolve(client);
    this.client = promise;
    client.on('error', (error) => this.drop(promise, client, errorMessage(error)));
    client.on('end', () => this.drop(promise, client, 'ended'));
    return client;
  }

  private drop(promise: Promise<Client>, client: Client, why: string): void {
    if (this.client !== promise) return;
    this.client = undefined;
    this.logger.warn(`lost the journal connection (${why}); the next statement opens another`);
    client.end().catch(() => undefined);
  }

  private async tryLock(client: Client): Promise<boolean> {
    const result = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock($1) AS locked', [JOURNAL_LOCK_KEY.toString()]);
    return result.rows[0]!.locked;
  }

  /** Who holds the lock, from pg_stat_activity: what an operator needs to find it (or end its session). */
  private async lockHolder(client: Client): Promise<string> {
    const key = JOURNAL_LOCK_KEY;
    const result = await client.query<{ pid: number; name: string; address: string | null; since: string }>(
      `SELECT a.pid, a.application_name AS name, a.client_addr::text AS address, a.backend_start::text AS since
         FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 1`,
      [String(key >> 32n), String(key & 0xffffffffn)],
    );
    const row = result.rows[0];
    return row ? `PostgreSQL backend ${row.pid}, "${row.name}" from ${row.address ?? 'a local socket'} since ${row.since}` : 'it has just let go';
  }
}
