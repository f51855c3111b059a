import { Logger } from '@nestjs/common';
import { backoff, DistinctFailures, errorMessage, isDatabaseUnavailable, NothingDoneError, OutcomeUnknownError } from '@exchange/service-kit';
import type { Effects } from '../engine/effects';
import { batchCommitted, writeBatch, writtenUnanswered, type WrittenBatch } from './journal-sql';
import { JournalInDoubtError, JournalTakenError, refusedByServer, type Queryable } from './journal-session';
import { timeOrderedHash } from './time-ordered-ids';
import { BatchNotCommittedError, leftNothingWritten, serverCondition } from './unwritten-failures';

/** Waits between two attempts at a batch that PostgreSQL could not take (`leftNothingWritten`). */
const FIRST_RETRY_MS = 100;
const LONGEST_RETRY_MS = 2_000;
/**
 * Writes of one batch that PostgreSQL refused, or that were found not committed after a lost connection,
 * before the engine gives up and exits (nothing written: its commands are told so): a batch that fails the
 * same way every time (a statement_timeout shorter than it, a statement that crashes the server) would
 * otherwise keep the engine refusing every command for good. A condition of the server (a full disk, a
 * read-only server: `serverCondition`) is not counted.
 */
const MOST_REWRITES = 3;

interface Waiter {
  resolve(batchId: string): void;
  reject(error: unknown): void;
}

/** What a command refused while a lost journal connection is settled is told. */
const RECONNECTING = "the matching engine's journal is reconnecting";

/** How long the answers of a batch whose write failed fatally have to leave before `onFatal` ends the process. */
export const FATAL_EXIT_DELAY_MS = 200;

/**
 * Group commit: the engine applies commands in memory one after another; their effects queue here and
 * are written together in one statement (journal-sql.ts) while the previous one is in flight. A command is
 * answered only after the batch holding its effects committed. A write that left nothing written (no
 * connection, a full disk: `leftNothingWritten`) is tried again until it succeeds, and meanwhile
 * `failing` says why, so that no new command is run (engine.service.ts): until the twenty-fifth session
 * the process exited there, and a database out of connections or of disk space became a crash loop with
 * two minutes of post-only mode after each start (found by a resource probe). A connection lost during
 * the statement is settled (`write`). After any other failure memory and database may disagree: the
 * batch's commands are told that nothing was done (PostgreSQL refused the statement) or that it may have
 * been, and `onFatal` is called once their answers have left (the process exits and rebuilds from the
 * database, where no answered command is missing).
 */
export class GroupCommit {
  private readonly logger = new Logger(GroupCommit.name);
  private parts: Effects[] = [];
  private waiters: Waiter[] = [];
  private running = false;
  private unwritten?: unknown;
  private readonly failures = new DistinctFailures((why) => this.logger.warn(`journal write failed, nothing written; trying again: ${why}`));
  private readonly askFailures = new DistinctFailures((why) => this.logger.warn(`could not ask whether the batch committed; asking again: ${why}`));
  /** Called after each committed batch that wrote events or updated orders (the relay publishes the events). */
  onCommitted: (written: WrittenBatch) => void = () => undefined;

  constructor(
    private readonly pool: Queryable,
    private readonly onFatal: (error: unknown) => void,
  ) {}

  /** Why the batch in hand could not be written, while it is being tried again; undefined otherwise. */
  get failing(): unknown {
    return this.unwritten;
  }

  /** Queues a command's effects; resolves with the id of the batch once it is durable. */
  commit(effects: Effects): Promise<string> {
    if (!effects.empty) this.parts.push(effects);
    const done = new Promise<string>((resolve, reject) => this.waiters.push({ resolve, reject }));
    if (!this.running) void this.run();
    return done;
  }

  private async run(): Promise<void> {
    this.running = true;
    // Let the commands that arrived in the same turn join the batch.
    await new Promise((r) => setImmediate(r));
    let attempt = 0;
    let rewrites = 0;
    while (this.waiters.length) {
      const parts = this.parts;
      const waiters = this.waiters;
      this.parts = [];
      this.waiters = [];
      const batchId = timeOrderedHash();
      try {
        const written = parts.length ? await this.write(batchId, waiters.length, parts) : undefined;
        if (this.unwritten !== undefined) this.logger.log('journal writes succeed again');
        this.unwritten = undefined;
        this.failures.cleared();
        attempt = 0;
        rewrites = 0;
        for (const w of waiters) w.resolve(batchId);
        // After the answers: they leave in the microtasks of this turn, the batch's events in the next
        // (rows unknown here when the statement's answer was lost: read back).
        if (written && (written.outbox === undefined || written.outbox.length > 0 || written.updatedOrders > 0)) {
          setImmediate(() => this.onCommitted(written));
        }
      } catch (error) {
        const rewrite = refusedByServer(error) || error instanceof BatchNotCommittedError;
        if (leftNothingWritten(error) && !(rewrite && !serverCondition(error) && ++rewrites >= MOST_REWRITES)) {
          // The same effects again, first, with what arrived meanwhile (the commands already run). New
          // commands are told why (a 503 either way: "unavailable" or "nothing was done").
          this.unwritten =
            isDatabaseUnavailable(error) || error instanceof NothingDoneError
              ? error
              : new NothingDoneError('the matching engine cannot write its journal yet', { cause: error });
          this.failures.failed(errorMessage(error));
          this.parts = [...parts, ...this.parts];
          this.waiters = [...waiters, ...this.waiters];
          await backoff(attempt++, FIRST_RETRY_MS, LONGEST_RETRY_MS);
          continue;
        }
        this.logger.error(error instanceof Error ? error : String(error), 'journal write failed');
        // The batch may have committed: not "the database is unavailable; retry shortly", which would invite
        // a second order. What queued behind it was never written, and no new command runs (`failing`):
        // both are told so whatever the failure was (its own error was a 500 when it was a bug).
        const notWritten = new NothingDoneError('the matching engine restarts after a failed journal write', { cause: error });
        // Taken by another engine: the statement never left. Refused by PostgreSQL (a fault of the batch),
        // or found not committed: rolled back. Until the thirty-fourth session a refusal was told it may
        // have been made.
        const unknown =
          error instanceof JournalTakenError || rewrite
            ? notWritten
            : new OutcomeUnknownError('could not tell whether its journal write committed', { cause: error });
        for (const w of waiters) w.reject(unknown);
        for (const w of this.waiters) w.reject(notWritten);
        this.parts = [];
        this.waiters = [];
        this.unwritten = notWritten;
        // Exiting at once, the process took these answers with it and every caller waited out its timeout.
        setTimeout(() => this.onFatal(error), FATAL_EXIT_DELAY_MS);
        return;
      }
    }
    this.running = false;
  }

  /**
   * Writes the batch. When its connection was lost while the statement ran (PostgreSQL restarted, the
   * session was ended, the network cut), asks whether the batch committed, on a connection that holds the
   * journal's lock again: by then the old session has ended, its transaction with it. Committed, the batch
   * is answered as written; not, it is written again (`BatchNotCommittedError`). Until the thirty-fourth
   * session the engine exited there, and every PostgreSQL restart under load cost a restart of the engine
   * and its post-only window (found by a probe ending the journal's session).
   */
  private async write(batchId: string, commands: number, parts: Effects[]): Promise<WrittenBatch> {
    try {
      return await writeBatch(this.pool, batchId, commands, parts);
    } catch (error) {
      if (!(error instanceof JournalInDoubtError)) throw error;
      this.logger.warn(`${error.message}; no new command runs until it is known whether the batch committed`);
      this.unwritten = new NothingDoneError(RECONNECTING, { cause: error });
      const committed = await this.committed(batchId);
      this.logger.log(`the batch whose answer was lost had ${committed ? 'committed' : 'not committed: it is written again'}`);
      if (committed) return writtenUnanswered(parts);
      throw new BatchNotCommittedError(RECONNECTING, { cause: error });
    }
  }

  /** Asks until it can: only another engine's claim, or a fault, leaves the outcome unknown (fatal). */
  private async committed(batchId: string): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        const committed = await batchCommitted(this.pool, batchId);
        this.askFailures.cleared();
        return committed;
      } catch (error) {
        if (!(leftNothingWritten(error) || error instanceof JournalInDoubtError)) {
          throw new Error(`could not find out whether a batch committed: ${errorMessage(error)}`, { cause: error });
        }
        this.askFailures.failed(errorMessage(error));
        await backoff(attempt, FIRST_RETRY_MS, LONGEST_RETRY_MS);
      }
    }
  }
}
