import type { Pool } from 'pg';

/**
 * Vacuums one table after a given number of dead row versions, rather than counting on autovacuum, which
 * may be off (it is on these machines). One VACUUM runs at a time; rows noted while it runs count
 * toward the next. `TRUNCATE false`: cutting the emptied end of the table takes an exclusive lock that
 * the next write would wait for, and the next writes fill that end again.
 */
export class TableVacuum {
  private dead = 0;
  private running?: Promise<void>;

  constructor(
    private readonly pool: Pick<Pool, 'query'>,
    private readonly table: string,
    private readonly afterRows: number,
  ) {}

  /** Counts `rows` dead row versions; resolves when the VACUUM this call started ends (at once if none). */
  note(rows: number): Promise<void> {
    this.dead += rows;
    if (this.running || this.dead < this.afterRows) return Promise.resolve();
    this.dead = 0;
    const run = this.pool.query(`VACUUM (TRUNCATE false, PARALLEL 0) ${this.table}`).then(() => undefined);
    this.running = run.finally(() => (this.running = undefined));
    return this.running;
  }
}
