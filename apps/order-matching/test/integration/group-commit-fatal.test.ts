import path from 'node:path';
import { Client, Pool } from 'pg';
import { createEmptyTestDatabase, createTestDatabase, dropDatabase, NothingDoneError, OutcomeUnknownError } from '@exchange/service-kit';
import { eventually, refusedInserts, sleep } from '@exchange/testing';
import { FATAL_EXIT_DELAY_MS, GroupCommit } from '../../src/journal/group-commit';
import { fund, newEngine, traderOf } from '../support/engine-fixture';

/** Commits a batch, then queues one behind it while it is in flight; both outcomes, whatever they are. */
function batchAndOneBehind(commits: GroupCommit) {
  const state = newEngine();
  fund(state, traderOf(1), '10');
  const written = commits.commit(state.takeEffects()).catch((error: unknown) => error);
  fund(state, traderOf(2), '10');
  // After the batch has left: this one waits behind it.
  const queued = new Promise((resolve) => setImmediate(resolve)).then(() => commits.commit(state.takeEffects()).catch((error: unknown) => error));
  return { written, queued };
}

/** Journal writes that fail for good, on a real PostgreSQL: the process exits after the answers, which say what is known. */
describe('GroupCommit after a write that failed for good', () => {
  it("tells the batch's commands that nothing was done when PostgreSQL refused the statement, those queued behind it too, and exits after the answers", async () => {
    // A database without the journal's tables refuses the batch: a fault, not a passing refusal.
    const url = await createEmptyTestDatabase('fatal');
    const pool = new Pool({ connectionString: url, max: 1 });
    try {
      const fatal: unknown[] = [];
      const commits = new GroupCommit(pool, (error) => void fatal.push(error));
      const { written, queued } = batchAndOneBehind(commits);

      const refused = await written;
      expect(refused).toBeInstanceOf(NothingDoneError);
      expect((refused as Error).message).toBe('the matching engine restarts after a failed journal write');
      expect((refused as Error).cause).toMatchObject({ code: '42P01' });
      expect(await queued).toBe(refused);
      // No new command runs (engine.service.ts reads `failing`), and the exit waits for the answers to leave.
      expect(commits.failing).toBe(refused);
      expect(fatal).toEqual([]);
      await sleep(FATAL_EXIT_DELAY_MS + 100);
      expect(fatal).toEqual([(refused as Error).cause]);
    } finally {
      await pool.end();
      await dropDatabase(url);
    }
  });

  describe('on the journal', () => {
    let url: string;
    let admin: Pool;
    beforeAll(async () => {
      url = await createTestDatabase(path.join(__dirname, '../..'), 'fatal');
      admin = new Pool({ connectionString: url, max: 1 });
    });
    afterAll(async () => {
      await admin.end();
      await dropDatabase(url);
    });

    const waitingFor = async (name: string) =>
      (
        await admin.query<{ pid: number; since: string }>(
          `SELECT pid, query_start::text AS since FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`,
          [name],
        )
      ).rows;

    /**
     * A group commit on a pool of its own (`name`, one connection) whose writes of `batches` wait, behind
     * another transaction's lock, until `release`; a batch and one queued behind it are committed at once.
     * `signal` ends or cancels the statement waiting there. The pool and the lock go after `work`.
     */
    const onBlockedPool = async (
      name: string,
      work: (fixture: {
        commits: GroupCommit;
        fatal: unknown[];
        outcomes: ReturnType<typeof batchAndOneBehind>;
        signal: (how: 'pg_terminate_backend' | 'pg_cancel_backend') => Promise<void>;
        release: () => Promise<void>;
      }) => Promise<void>,
    ) => {
      const pool = new Pool({ connectionString: url, max: 1, application_name: name });
      pool.on('error', () => undefined);
      const blocker = new Client({ connectionString: url });
      await blocker.connect();
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE batches IN ACCESS EXCLUSIVE MODE');
      let released = false;
      const release = async () => {
        if (released) return;
        released = true;
        await blocker.query('COMMIT');
        await blocker.end();
      };
      try {
        const fatal: unknown[] = [];
        const commits = new GroupCommit(pool, (error) => void fatal.push(error));
        const outcomes = batchAndOneBehind(commits);
        const signal = async (how: 'pg_terminate_backend' | 'pg_cancel_backend') => {
          await eventually(async () => (await waitingFor(name)).length === 1, 'the batch to wait');
          const [statement] = await waitingFor(name);
          await admin.query(`SELECT ${how}($1)`, [statement!.pid]);
          // Gone before the next signal, which would otherwise cancel this statement again (a flake).
          const stillWaiting = async () => (await waitingFor(name)).some((row) => row.pid === statement!.pid && row.since === statement!.since);
          await eventually(async () => !(await stillWaiting()), 'the signalled statement to end');
        };
        await work({ commits, fatal, outcomes, signal, release });
      } finally {
        await release();
        await pool.end();
      }
    };

    it('tells the commands of a batch whose plain pool connection was lost that they may have been done, and exits', async () => {
      // Not the journal's own session, which asks again (journal-session.test.ts): a pool cannot tell.
      await onBlockedPool('fatal-pool', async ({ fatal, outcomes, signal }) => {
        await signal('pg_terminate_backend');

        const unknown = await outcomes.written;
        expect(unknown).toBeInstanceOf(OutcomeUnknownError);
        expect((unknown as Error).message).toBe('could not tell whether its journal write committed');
        const notDone = await outcomes.queued;
        expect(notDone).toBeInstanceOf(NothingDoneError);
        expect((notDone as Error).cause).toBe((unknown as Error).cause);
        await sleep(FATAL_EXIT_DELAY_MS + 100);
        expect(fatal).toEqual([(unknown as Error).cause]);
      });
    });

    it('writes a batch again after a cancel of its statement (an operator, a statement_timeout), instead of exiting', async () => {
      await onBlockedPool('canceled-pool', async ({ commits, fatal, outcomes, signal, release }) => {
        await signal('pg_cancel_backend');
        // Tried again, and waiting again behind the lock; meanwhile nothing new runs (a 503, nothing done).
        await eventually(() => commits.failing !== undefined, 'the write to fail');
        expect(commits.failing).toEqual(new NothingDoneError('the matching engine cannot write its journal yet'));
        expect((commits.failing as Error).cause).toMatchObject({ code: '57014' });
        await release();

        // Written again with what queued behind it, in one batch.
        const batchId = await outcomes.written;
        expect(await outcomes.queued).toBe(batchId);
        expect((await admin.query('SELECT id FROM batches')).rows).toEqual([{ id: batchId }]);
        expect((await admin.query(`SELECT available::text FROM balances WHERE asset = 'COLLATERAL'`)).rows).toEqual([{ available: '10000000' }, { available: '10000000' }]);
        expect(commits.failing).toBeUndefined();
        expect(fatal).toEqual([]);
      });
    });

    it('gives up on a batch refused three times in a row (a statement_timeout shorter than it): nothing was done, and it exits', async () => {
      await onBlockedPool('refused-pool', async ({ fatal, outcomes, signal }) => {
        for (let refusal = 1; refusal <= 3; refusal++) await signal('pg_cancel_backend');
        const refused = await outcomes.written;
        expect(refused).toEqual(new NothingDoneError('the matching engine restarts after a failed journal write'));
        expect((refused as Error).cause).toMatchObject({ code: '57014' });
        expect(await outcomes.queued).toBe(refused);
        await sleep(FATAL_EXIT_DELAY_MS + 100);
        expect(fatal).toEqual([(refused as Error).cause]);
        expect(await waitingFor('refused-pool')).toEqual([]);
      });
    });

    it('keeps writing a batch that a full disk refuses, however many times, until there is room again (a condition of the server, not of the batch)', async () => {
      // PostgreSQL's own refusal when a table cannot grow (53100).
      const fullDisk = await refusedInserts(admin, 'batches', 'disk_full');
      await fullDisk.refuse();
      const pool = new Pool({ connectionString: url, max: 1 });
      try {
        const fatal: unknown[] = [];
        const commits = new GroupCommit(pool, (error) => void fatal.push(error));
        const outcomes = batchAndOneBehind(commits);
        await eventually(async () => (await fullDisk.refusals()) > 3, 'more than three refused writes', 10_000);
        // New commands are told the database is unavailable (a 503 to retry shortly), nothing done.
        expect(commits.failing).toMatchObject({ code: '53100' });
        expect(fatal).toEqual([]);

        await fullDisk.allow();
        const batchId = await outcomes.written;
        expect(await outcomes.queued).toBe(batchId);
        expect((await admin.query('SELECT commands FROM batches WHERE id = $1', [batchId])).rows).toEqual([{ commands: 2 }]);
        expect(commits.failing).toBeUndefined();
        expect(fatal).toEqual([]);
      } finally {
        await pool.end();
        await fullDisk.remove();
      }
    });
  });
});
