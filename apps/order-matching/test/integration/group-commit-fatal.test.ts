import path from 'node:path';
import { Client, Pool } from 'pg';
import { createEmptyTestDatabase, createTestDatabase, dropDatabase, NothingDoneError, OutcomeUnknownError } from '@exchange/service-kit';
import { eventually, sleep } from '@exchange/testing';
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

    /** Keeps every write of `batches` waiting until `release`. */
    const blockBatches = async () => {
      const blocker = new Client({ connectionString: url });
      await blocker.connect();
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE batches IN ACCESS EXCLUSIVE MODE');
      return async () => {
        await blocker.query('COMMIT');
        await blocker.end();
      };
    };
    const waitingFor = async (name: string) =>
      (await admin.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, [name])).rows;

    it('tells the commands of a batch whose plain pool connection was lost that they may have been done, and exits', async () => {
      // Not the journal's own session, which asks again (journal-session.test.ts): a pool cannot tell.
      const pool = new Pool({ connectionString: url, max: 1, application_name: 'fatal-pool' });
      pool.on('error', () => undefined);
      const release = await blockBatches();
      try {
        const fatal: unknown[] = [];
        const commits = new GroupCommit(pool, (error) => void fatal.push(error));
        const { written, queued } = batchAndOneBehind(commits);
        await eventually(async () => (await waitingFor('fatal-pool')).length === 1, 'the batch to wait');
        await admin.query('SELECT pg_terminate_backend($1)', [(await waitingFor('fatal-pool'))[0]!.pid]);

        const unknown = await written;
        expect(unknown).toBeInstanceOf(OutcomeUnknownError);
        expect((unknown as Error).message).toBe('could not tell whether its journal write committed');
        const notDone = await queued;
        expect(notDone).toBeInstanceOf(NothingDoneError);
        expect((notDone as Error).cause).toBe((unknown as Error).cause);
        await sleep(FATAL_EXIT_DELAY_MS + 100);
        expect(fatal).toEqual([(unknown as Error).cause]);
      } finally {
        await release();
        await pool.end();
      }
    });

    it('writes a batch again after a cancel of its statement (an operator, a statement_timeout), instead of exiting', async () => {
      const pool = new Pool({ connectionString: url, max: 1, application_name: 'canceled-pool' });
      const release = await blockBatches();
      try {
        const fatal: unknown[] = [];
        const commits = new GroupCommit(pool, (error) => void fatal.push(error));
        const { written, queued } = batchAndOneBehind(commits);
        await eventually(async () => (await waitingFor('canceled-pool')).length === 1, 'the batch to wait');
        await admin.query('SELECT pg_cancel_backend($1)', [(await waitingFor('canceled-pool'))[0]!.pid]);
        // Tried again, and waiting again behind the lock; meanwhile nothing new runs (a 503, nothing done).
        await eventually(() => commits.failing !== undefined, 'the write to fail');
        expect(commits.failing).toEqual(new NothingDoneError('the matching engine cannot write its journal yet'));
        expect((commits.failing as Error).cause).toMatchObject({ code: '57014' });
        await release();

        // Written again with what queued behind it, in one batch.
        const batchId = await written;
        expect(await queued).toBe(batchId);
        expect((await admin.query('SELECT id FROM batches')).rows).toEqual([{ id: batchId }]);
        expect((await admin.query(`SELECT available::text FROM balances WHERE asset = 'COLLATERAL'`)).rows).toEqual([{ available: '10000000' }, { available: '10000000' }]);
        expect(commits.failing).toBeUndefined();
        expect(fatal).toEqual([]);
      } finally {
        await release().catch(() => undefined);
        await pool.end();
      }
    });

    it('gives up on a batch refused three times in a row (a statement_timeout shorter than it): nothing was done, and it exits', async () => {
      const pool = new Pool({ connectionString: url, max: 1, application_name: 'refused-pool' });
      const release = await blockBatches();
      try {
        const fatal: unknown[] = [];
        const commits = new GroupCommit(pool, (error) => void fatal.push(error));
        const { written, queued } = batchAndOneBehind(commits);
        for (let refusal = 1; refusal <= 3; refusal++) {
          await eventually(async () => (await waitingFor('refused-pool')).length === 1, `attempt ${refusal} to wait`);
          await admin.query('SELECT pg_cancel_backend($1)', [(await waitingFor('refused-pool'))[0]!.pid]);
        }
        const refused = await written;
        expect(refused).toEqual(new NothingDoneError('the matching engine restarts after a failed journal write'));
        expect((refused as Error).cause).toMatchObject({ code: '57014' });
        expect(await queued).toBe(refused);
        await sleep(FATAL_EXIT_DELAY_MS + 100);
        expect(fatal).toEqual([(refused as Error).cause]);
        expect(await waitingFor('refused-pool')).toEqual([]);
      } finally {
        await release();
        await pool.end();
      }
    });
  });
});
