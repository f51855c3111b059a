import { Pool } from 'pg';
import { createEmptyTestDatabase, dropDatabase, NothingDoneError, OutcomeUnknownError } from '@exchange/service-kit';
import { sleep } from '@exchange/testing';
import { FATAL_EXIT_DELAY_MS, GroupCommit } from '../../src/journal/group-commit';
import { fund, newEngine, traderOf } from '../support/engine-fixture';

/**
 * A journal write that fails in a way that may have committed, on a real PostgreSQL: a database without
 * the journal's tables refuses the batch with an error that is not one of "nothing written".
 */
describe('GroupCommit after a write whose outcome is unknown', () => {
  let url: string;
  let pool: Pool;
  beforeAll(async () => {
    url = await createEmptyTestDatabase('fatal');
    pool = new Pool({ connectionString: url, max: 1 });
  });
  afterAll(async () => {
    await pool.end();
    await dropDatabase(url);
  });

  it("tells the batch's commands they may have been done, those queued behind it that they were not, runs no more, and exits after the answers", async () => {
    const fatal: unknown[] = [];
    const commits = new GroupCommit(pool, (error) => void fatal.push(error));
    const state = newEngine();
    fund(state, traderOf(1), '10');
    const written = commits.commit(state.takeEffects());
    const writtenOutcome = written.catch((error: unknown) => error);
    // After the batch has left: this one waits behind it.
    await new Promise((resolve) => setImmediate(resolve));
    fund(state, traderOf(2), '10');
    const queuedOutcome = commits.commit(state.takeEffects()).catch((error: unknown) => error);

    const unknown = await writtenOutcome;
    expect(unknown).toBeInstanceOf(OutcomeUnknownError);
    expect((unknown as Error).message).toBe('could not tell whether its journal write committed');
    const queued = await queuedOutcome;
    // Told that nothing was done whatever the failure was (here a missing table, a 500 of its own).
    expect(queued).toBeInstanceOf(NothingDoneError);
    expect((queued as Error).cause).toBe((unknown as Error).cause);
    // No new command runs (engine.service.ts reads `failing`), and the exit waits for the answers to leave.
    expect(commits.failing).toBe(queued);
    expect(fatal).toEqual([]);
    await sleep(FATAL_EXIT_DELAY_MS + 100);
    expect(fatal).toEqual([(unknown as Error).cause]);
  });
});
