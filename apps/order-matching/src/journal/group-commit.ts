import { Logger } from '@nestjs/common';
import type { Pool } from 'pg';
import type { Effects } from '../engine/effects';
import { writeBatch, type WrittenBatch } from './journal-sql';
import { timeOrderedHash } from './time-ordered-ids';

interface Waiter {
  resolve(batchId: string): void;
  reject(error: unknown): void;
}

/**
 * Group commit: the engine applies commands in memory one after another; their effects queue here and
 * are written together in one statement (journal-sql.ts) while the previous one is in flight. A command is
 * answered only after the batch holding its effects committed. If a write fails, memory and database
 * disagree: `onFatal` is called (the process exits and rebuilds from the database, where no answered
 * command is missing).
 */
export class GroupCommit {
  private readonly logger = new Logger(GroupCommit.name);
  private parts: Effects[] = [];
  private waiters: Waiter[] = [];
  private running = false;
  /** Called after each committed batch that wrote events or updated orders (the relay publishes the events). */
  onCommitted: (written: WrittenBatch) => void = () => undefined;

  constructor(
    private readonly pool: Pool,
    private readonly onFatal: (error: unknown) => void,
  ) {}

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
    while (this.waiters.length) {
      const parts = this.parts;
      const waiters = this.waiters;
      this.parts = [];
      this.waiters = [];
      const batchId = timeOrderedHash();
      try {
        const written = parts.length ? await this.write(batchId, waiters.length, parts) : undefined;
        for (const w of waiters) w.resolve(batchId);
        // After the answers: they leave in the microtasks of this turn, the batch's events in the next.
        if (written && (written.outbox.length || written.updatedOrders)) setImmediate(() => this.onCommitted(written));
      } catch (error) {
        this.logger.error(error instanceof Error ? error : String(error), 'journal write failed');
        for (const w of waiters) w.reject(error);
        this.onFatal(error);
        return;
      }
    }
    this.running = false;
  }

  private write(batchId: string, commands: number, parts: Effects[]): Promise<WrittenBatch> {
    return writeBatch(this.pool, batchId, commands, parts);
  }
}
