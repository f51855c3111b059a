import path from 'node:path';
import { Client, Pool } from 'pg';
import { createTestDatabase, dropDatabase, inTransaction, NothingDoneError } from '@exchange/service-kit';
import { databaseRelay, eventually, refusedInserts, sleep, type DatabaseRelay } from '@exchange/testing';
import { FATAL_EXIT_DELAY_MS, GroupCommit } from '../../src/journal/group-commit';
import { JournalNotOpenedError, JournalSession, JournalTakenError } from '../../src/journal/journal-session';
import type { WrittenBatch } from '../../src/journal/journal-sql';
import { BatchNotCommittedError } from '../../src/journal/unwritten-failures';
import { fund, newEngine, traderOf } from '../support/engine-fixture';

/** The journal's connection on a fresh database: one writer at a time, one connection, a generic plan. */
describe('JournalSession', () => {
  let url: string;
  let admin: Pool;
  const sessions: JournalSession[] = [];
  const session = (name: string, through = url, answerTimeoutMs?: number) => {
    const created = new JournalSession(through, name, answerTimeoutMs);
    sessions.push(created);
    return created;
  };
  const backendOf = async (journal: JournalSession) => (await journal.query<{ pid: number }>({ text: 'SELECT pg_backend_pid() AS pid' })).rows[0]!.pid;
  /** What an operator's pg_terminate_backend or a network cut does to an engine's connection. */
  const cutOff = async (pid: number) => {
    await admin.query('SELECT pg_terminate_backend($1)', [pid]);
    await eventually(async () => (await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [pid])).rowCount === 0, 'the backend to end');
    // The client sees the socket close on its next turns.
    await sleep(100);
  };

  /** The database behind a relay of the test's own (held answers, cut connections), closed after `work`. */
  const throughRelay = async (work: (relay: DatabaseRelay) => Promise<void>) => {
    const relay = await databaseRelay(url);
    await relay.open();
    try {
      await work(relay);
    } finally {
      relay.cut();
      await relay.close();
    }
  };
  /** Claims the journal and puts a group commit on it; `fatal` takes what it passes its fatal handler. */
  const groupCommitOn = async (journal: JournalSession) => {
    await journal.claim();
    const fatal: unknown[] = [];
    return { commits: new GroupCommit(journal, (error) => void fatal.push(error)), fatal };
  };

  beforeAll(async () => {
    url = await createTestDatabase(path.join(__dirname, '../..'), 'journalsession');
    admin = new Pool({ connectionString: url, max: 1 });
  });
  afterEach(async () => {
    await Promise.all(sessions.splice(0).map((s) => s.end()));
    await admin.query('DELETE FROM batches; DELETE FROM balances; DELETE FROM money_moves; DELETE FROM outbox');
  });
  afterAll(async () => {
    await admin.end();
    await dropDatabase(url);
  });

  it('lets one engine at a time take the journal: a second waits until the first stops, then claims with the next epoch', async () => {
    const first = session('first');
    await first.claim();
    let secondClaimed = false;
    const second = session('second');
    const claim = second.claim().then(() => (secondClaimed = true));
    const backendsOf = async (name: string) =>
      (await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1`, [name])).rows.map((row) => row.pid);
    await eventually(async () => (await backendsOf('order-matching journal second')).length === 1, 'the second to wait');
    const waitingOn = await backendsOf('order-matching journal second');
    await sleep(2_500);
    expect(secondClaimed).toBe(false);
    // One connection for the whole wait (it used to open one a second).
    expect(await backendsOf('order-matching journal second')).toEqual(waitingOn);
    // The operator can find the holder by the name it gives itself (advisory locks are per database).
    const holders = await admin.query<{ name: string }>(
      `SELECT a.application_name AS name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
        WHERE l.locktype = 'advisory' AND l.granted AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    expect(holders.rows).toEqual([{ name: 'order-matching journal first' }]);

    await first.end();
    await claim;
    expect(second.claimedEpoch).toBe(String(Number(first.claimedEpoch) + 1));
    expect((await second.query<{ n: number }>({ text: 'SELECT pg_backend_pid() AS n' })).rows).toEqual([{ n: waitingOn[0] }]);
  });

  it('opens a lost connection again while the journal is still its own', async () => {
    const journal = session('alone');
    await journal.claim();
    const before = await backendOf(journal);
    await cutOff(before);
    const after = await backendOf(journal);
    expect(after).not.toBe(before);
    // It holds the lock again: another engine still waits.
    const other = session('other');
    let claimed = false;
    void other.claim().then(
      () => (claimed = true),
      () => undefined,
    );
    await sleep(1_500);
    expect(claimed).toBe(false);
  });

  it('writes nothing more once another engine took the journal while its connection was down, even one that stopped since', async () => {
    const old = session('old');
    await old.claim();
    await cutOff(await backendOf(old));
    const successor = session('successor');
    await successor.claim();

    const write = { text: "INSERT INTO settings (key, value) VALUES ('written-by-old', 'yes')" };
    const taken = new JournalTakenError(`another engine wrote the journal meanwhile (epoch ${successor.claimedEpoch}, this engine's ${old.claimedEpoch})`);
    await expect(old.query(write)).rejects.toThrow(taken);
    await successor.end();
    await expect(old.query(write)).rejects.toThrow(taken);
    expect((await admin.query("SELECT 1 FROM settings WHERE key = 'written-by-old'")).rowCount).toBe(0);
    // The refused engine let the lock go again: a third claims at once.
    const third = session('third');
    await third.claim();
  });

  it("fences another connection's writes by the epoch: one in flight during a takeover lands before it, none after", async () => {
    const old = session('fenced-old');
    await old.claim();
    // A write of the old engine's query pool, its transaction open (holding the epoch) while the engine
    // loses its journal and a successor claims it: the claim waits for the write.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const isHolding = new Promise<void>((resolve) => (holding = resolve));
    const enginePool = new Pool({ connectionString: url, max: 1 });
    const write = inTransaction(enginePool, async (client) => {
      expect(await old.holdEpoch(client)).toBe(true);
      await client.query("INSERT INTO settings (key, value) VALUES ('before-takeover', 'old')");
      holding();
      await held;
    });
    await isHolding;
    await cutOff(await backendOf(old));
    const successor = session('fenced-successor');
    let claimed = false;
    const claim = successor.claim().then(() => (claimed = true));
    await sleep(1_500);
    expect(claimed).toBe(false);
    release();
    await write;
    await claim;
    // The successor sees the write it waited for; the old engine's next one is fenced off.
    expect((await admin.query("SELECT value FROM settings WHERE key = 'before-takeover'")).rows).toEqual([{ value: 'old' }]);
    try {
      expect(await inTransaction(enginePool, (client) => old.holdEpoch(client))).toBe(false);
      expect(await inTransaction(enginePool, (client) => successor.holdEpoch(client))).toBe(true);
    } finally {
      await enginePool.end();
    }
  });

  it('opens nothing once ended: a claim waiting behind another gives up, and a query fails', async () => {
    const ended = session('ended');
    await ended.claim();
    const waiting = session('waiting');
    const claim = waiting.claim().catch((error: unknown) => error);
    await sleep(1_200);
    await waiting.end();
    expect(await claim).toEqual(new Error('the journal session was ended while it waited for the journal'));
    await ended.end();
    await expect(ended.query({ text: 'SELECT 1' })).rejects.toThrow('the journal session was ended');
    await eventually(
      async () =>
        (await admin.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'order-matching journal %'")).rowCount === 0,
      'no journal connection left',
    );
  });

  it("tells the commands of an engine whose journal was taken that nothing was done, and ends the process after their answers", async () => {
    const old = session('old-engine');
    await old.claim();
    await cutOff(await backendOf(old));
    await session('new-engine').claim();
    const fatal: unknown[] = [];
    const commits = new GroupCommit(old, (error) => void fatal.push(error));
    const state = newEngine();
    fund(state, traderOf(1), '10');
    const outcome = await commits.commit(state.takeEffects()).catch((error: unknown) => error);
    expect(outcome).toBeInstanceOf(NothingDoneError);
    expect((outcome as Error).cause).toBeInstanceOf(JournalTakenError);
    expect(commits.failing).toBe(outcome);
    await sleep(FATAL_EXIT_DELAY_MS + 100);
    expect(fatal).toEqual([(outcome as Error).cause]);
    expect((await admin.query('SELECT 1 FROM batches')).rowCount).toBe(0);
  });

  it('waits for its old session to end when a network cut left it holding the lock on the server', async () => {
    await throughRelay(async (relay) => {
      const journal = session('stranded', relay.url);
      await journal.claim();
      const stranded = await backendOf(journal);
      // The client's end breaks; the server's stays open, its session (and the lock) with it.
      relay.cut('client');
      await sleep(100);
      // Not taken: the lock is its own old session's, and the epoch still its own.
      const refused = await journal.query({ text: 'SELECT 1' }).catch((error: unknown) => error);
      expect(refused).toBeInstanceOf(JournalNotOpenedError);
      expect((refused as Error).message).toContain(`PostgreSQL backend ${stranded}, "order-matching journal stranded"`);
      relay.cut();
      await eventually(async () => (await admin.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [stranded])).rowCount === 0, 'the stranded session to end');
      expect((await journal.query<{ n: number }>({ text: 'SELECT 1 AS n' })).rows).toEqual([{ n: 1 }]);
      expect(await backendOf(journal)).not.toBe(stranded);
    });
  });

  it("answers a batch whose connection was lost after it committed as written, once, and hands its events to the relay to read back", async () => {
    await throughRelay(async (relay) => {
      const { commits, fatal } = await groupCommitOn(session('answer-lost', relay.url));
      const landed: WrittenBatch[] = [];
      commits.onCommitted = (written) => void landed.push(written);
      const state = newEngine();
      fund(state, traderOf(11), '10');
      // The statement runs and commits on the server; its answer stays in the relay, then the link breaks.
      relay.hold();
      const outcome = commits.commit(state.takeEffects());
      await eventually(async () => (await admin.query('SELECT 1 FROM batches')).rowCount === 1, 'the batch to commit');
      relay.cut();

      const batchId = await outcome;
      expect((await admin.query('SELECT id FROM batches')).rows).toEqual([{ id: batchId }]);
      await eventually(() => landed.length === 1, 'the batch handed over');
      expect(landed[0]!.outbox).toBeUndefined();
      expect(commits.failing).toBeUndefined();
      // The next batch goes on a new connection, after the first.
      fund(state, traderOf(12), '5');
      const next = await commits.commit(state.takeEffects());
      expect((await admin.query('SELECT id FROM batches ORDER BY id')).rows).toEqual([{ id: batchId }, { id: next }]);
      const balances = await admin.query<{ address: string; available: string }>(`SELECT address, available::text FROM balances WHERE asset = 'COLLATERAL' ORDER BY address`);
      expect(balances.rows).toEqual([
        { address: traderOf(11).address.toLowerCase(), available: '10000000' },
        { address: traderOf(12).address.toLowerCase(), available: '5000000' },
      ]);
      expect(fatal).toEqual([]);
    });
  });

  it('takes a statement left unanswered (a hung server, a silent network) as a lost connection: refuses new commands, then settles the batch', async () => {
    await throughRelay(async (relay) => {
      const { commits, fatal } = await groupCommitOn(session('unanswered', relay.url, 500));
      const state = newEngine();
      fund(state, traderOf(14), '3');
      relay.hold();
      let settled = false;
      const outcome = commits.commit(state.takeEffects()).finally(() => (settled = true));
      // Not queued behind for as long as the server takes: after the answer timeout, nothing new runs.
      await eventually(() => commits.failing !== undefined, 'the batch taken as lost');
      expect(commits.failing).toEqual(new NothingDoneError("the matching engine's journal is reconnecting"));
      expect(settled).toBe(false);
      // The link comes back (the held answers lost): the batch had committed, and is answered so.
      relay.cut();
      const batchId = await outcome;
      expect((await admin.query('SELECT id FROM batches')).rows).toEqual([{ id: batchId }]);
      expect(commits.failing).toBeUndefined();
      expect(fatal).toEqual([]);
    });
  });

  it('writes a batch again when its connection was lost before it committed, and refuses new commands until it knows', async () => {
    const { commits, fatal } = await groupCommitOn(session('cut-off'));
    const state = newEngine();
    fund(state, traderOf(13), '7');
    // Another transaction keeps the batch waiting for its table, then the journal's session is ended.
    const blocker = new Client({ connectionString: url });
    await blocker.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE batches IN ACCESS EXCLUSIVE MODE');
      const outcome = commits.commit(state.takeEffects());
      const waiting = async () =>
        (await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = 'order-matching journal cut-off' AND wait_event_type = 'Lock'`)).rows;
      await eventually(async () => (await waiting()).length === 1, 'the batch to wait for its table');
      await cutOff((await waiting())[0]!.pid);
      // Its question (did the batch commit?) waits for the table too: meanwhile nothing new runs.
      await eventually(async () => (await waiting()).length === 1, 'the question to wait for its table');
      expect(commits.failing).toEqual(new NothingDoneError("the matching engine's journal is reconnecting"));
      await blocker.query('COMMIT');

      const batchId = await outcome;
      expect((await admin.query('SELECT id FROM batches')).rows).toEqual([{ id: batchId }]);
      expect((await admin.query(`SELECT available::text FROM balances WHERE asset = 'COLLATERAL'`)).rows).toEqual([{ available: '7000000' }]);
      expect(commits.failing).toBeUndefined();
      expect(fatal).toEqual([]);
    } finally {
      await blocker.end();
    }
  });

  /** A group commit on `journal` whose statements are counted (`writes()`). */
  const countedCommits = async (journal: JournalSession) => {
    await journal.claim();
    let writes = 0;
    const fatal: unknown[] = [];
    const counted = { query: (config: Parameters<JournalSession['query']>[0]) => (writes++, journal.query(config)) } as JournalSession;
    return { commits: new GroupCommit(counted, (error) => void fatal.push(error)), fatal, writes: () => writes };
  };

  it("writes a batch again for as long as the server is read-only (the old primary after a failover), on a new connection each time, and never gives up", async () => {
    const database = new URL(url).pathname.slice(1);
    const journal = session('read-only');
    const { commits, fatal, writes } = await countedCommits(journal);
    const first = await backendOf(journal);
    // Every new session of the database is read-only from now on; the journal's own session is ended, so
    // it opens a new one (the lock and the epoch can still be read there).
    await admin.query(`ALTER DATABASE "${database}" SET default_transaction_read_only = on`);
    try {
      await cutOff(first);
      const state = newEngine();
      fund(state, traderOf(15), '4');
      const outcome = commits.commit(state.takeEffects());
      await eventually(() => writes() > 5, 'more than three refused writes');
      expect(commits.failing).toEqual(new NothingDoneError('the matching engine cannot write its journal yet'));
      expect((commits.failing as Error).cause).toMatchObject({ code: '25006' });
      expect(fatal).toEqual([]);

      // Only a connection opened after the primary is writable again can write: the refused ones were dropped.
      await admin.query(`ALTER DATABASE "${database}" RESET default_transaction_read_only`);
      const batchId = await outcome;
      expect((await admin.query('SELECT id FROM batches')).rows).toEqual([{ id: batchId }]);
      expect(commits.failing).toBeUndefined();
      expect(fatal).toEqual([]);
    } finally {
      await admin.query(`ALTER DATABASE "${database}" RESET default_transaction_read_only`);
    }
  });

  it('waits to take the journal while its server is read-only (the old primary after a failover), instead of failing its start', async () => {
    const database = new URL(url).pathname.slice(1);
    await admin.query(`ALTER DATABASE "${database}" SET default_transaction_read_only = on`);
    try {
      let claimed = false;
      const journal = session('claims-read-only');
      const claim = journal.claim().then(() => (claimed = true));
      // The lock is free, the epoch cannot be raised: refused, and tried again on a new connection.
      await sleep(1_500);
      expect(claimed).toBe(false);
      await admin.query(`ALTER DATABASE "${database}" RESET default_transaction_read_only`);
      await claim;
      expect(journal.claimedEpoch).toMatch(/^[0-9]+$/);
      expect((await journal.query<{ n: number }>({ text: 'SELECT 1 AS n' })).rows).toEqual([{ n: 1 }]);
    } finally {
      await admin.query(`ALTER DATABASE "${database}" RESET default_transaction_read_only`);
    }
  });

  /**
   * `batches` refuses its next `refusals` inserts with an internal error of the server (SQLSTATE XX000),
   * whose outcome the engine cannot know (it may follow a commit): each is asked about, as a lost connection is.
   */
  const internalErrors = async (refusals: number, work: () => Promise<void>) => {
    const inserts = await refusedInserts(admin, 'batches', 'internal_error');
    await inserts.refuse(refusals);
    try {
      await work();
    } finally {
      await inserts.remove();
    }
  };

  it('asks whether a batch failed by an internal error of the server committed, on a new connection, and writes it again when it did not', async () => {
    await internalErrors(2, async () => {
      const journal = session('internal-error');
      const { commits, fatal } = await groupCommitOn(journal);
      const first = await backendOf(journal);
      const state = newEngine();
      fund(state, traderOf(16), '2');
      const batchId = await commits.commit(state.takeEffects());
      expect((await admin.query('SELECT id, commands FROM batches')).rows).toEqual([{ id: batchId, commands: 1 }]);
      expect(await backendOf(journal)).not.toBe(first);
      expect(commits.failing).toBeUndefined();
      expect(fatal).toEqual([]);
    });
  });

  it('gives up on a batch found not committed three times in a row: nothing was done, and it exits', async () => {
    await internalErrors(3, async () => {
      const { commits, fatal } = await groupCommitOn(session('internal-errors'));
      const state = newEngine();
      fund(state, traderOf(17), '2');
      const refused = await commits.commit(state.takeEffects()).catch((error: unknown) => error);
      expect(refused).toEqual(new NothingDoneError('the matching engine restarts after a failed journal write'));
      expect((refused as Error).cause).toBeInstanceOf(BatchNotCommittedError);
      await sleep(FATAL_EXIT_DELAY_MS + 100);
      expect(fatal).toEqual([(refused as Error).cause]);
      expect((await admin.query('SELECT 1 FROM batches')).rowCount).toBe(0);
    });
  });

  it('plans a named statement over arrays once, generically, instead of at every execution', async () => {
    const journal = session('plans');
    await journal.claim();
    // The shape of the batch statement: arrays unnested; a custom plan would know each array's length.
    const statement = { name: 'unnest-count', text: 'SELECT count(*)::int AS n FROM UNNEST($1::text[]) AS u(id) WHERE u.id <> $2' };
    for (const size of [0, 1, 3, 8, 2, 5, 13]) {
      const ids = Array.from({ length: size }, (_, i) => `id-${i}`);
      const result = await journal.query<{ n: number }>({ ...statement, values: [ids, 'id-0'] });
      expect(result.rows[0]!.n).toBe(Math.max(0, size - 1));
    }
    const plans = await journal.query<{ generic: string; custom: string }>({
      text: `SELECT generic_plans::text AS generic, custom_plans::text AS custom FROM pg_prepared_statements WHERE name = 'unnest-count'`,
    });
    expect(plans.rows).toEqual([{ generic: '7', custom: '0' }]);
  });

  it("asks the server for TCP keepalives on its session, so a lost node's session, and the journal's lock with it, ends in about 30 s", async () => {
    const journal = session('keepalives');
    await journal.claim();
    const shown = await journal.query<{ name: string; setting: string }>({
      text: `SELECT name, setting FROM pg_settings WHERE name LIKE 'tcp_keepalives_%' ORDER BY name`,
    });
    expect(shown.rows).toEqual([
      { name: 'tcp_keepalives_count', setting: '4' },
      { name: 'tcp_keepalives_idle', setting: '10' },
      { name: 'tcp_keepalives_interval', setting: '5' },
    ]);
  });

  it('is a single connection: one backend answers every query', async () => {
    const journal = session('single');
    await journal.claim();
    const pids = [];
    for (let i = 0; i < 4; i++) pids.push(await backendOf(journal));
    expect(new Set(pids).size).toBe(1);
  });
});
