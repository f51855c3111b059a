import { Client, Pool } from 'pg';
import { createEmptyTestDatabase, dropDatabase } from '../../src/database/databases';
import type { OutboxRecord, OutboxStore } from '../../src/jetstream/outbox-relay';

/**
 * An outbox table as the services keep theirs (apps/catalog/prisma/schema.prisma, `OutboxMessage`:
 * a JSONB payload and a `published_at` mark; order-matching's keeps the payload as JSON text). Both
 * payload forms the relay publishes are columns here, one of them set per row. service-kit has no
 * Prisma schema of its own, so a test creates the table with this SQL on a fresh database.
 */
const OUTBOX_TABLE = `
  CREATE TABLE outbox (
    id BIGSERIAL PRIMARY KEY,
    subject TEXT NOT NULL,
    payload JSONB,
    json TEXT,
    created_at TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    published_at TIMESTAMPTZ(3),
    CHECK ((payload IS NULL) <> (json IS NULL))
  );
  CREATE INDEX outbox_published_at_id_idx ON outbox (published_at, id);
`;

/** The stream the tests' relays publish into. */
export const TEST_STREAM = { name: 'TEST', subjects: 'test.evt.>' };

/** A row to write: its payload as a value (the catalog's) or as JSON text (order-matching's). */
export type OutboxRow = { subject: string } & ({ payload: unknown } | { json: string });

interface Row {
  id: string;
  subject: string;
  payload: unknown;
  json: string | null;
}

const record = (r: Row): OutboxRecord =>
  r.json === null ? { id: BigInt(r.id), subject: r.subject, payload: r.payload } : { id: BigInt(r.id), subject: r.subject, json: r.json };

/** A fresh database holding an empty outbox table; `pool` reaches it directly (not through a relay). */
export interface OutboxDatabase {
  url: string;
  pool: Pool;
  /** Commits the rows in one statement, in order (ascending ids); answers them as the relay reads them. */
  write(rows: OutboxRow[], client?: Pick<Pool, 'query'>): Promise<OutboxRecord[]>;
  /** The ids of the rows not marked published, ascending. */
  unpublished(): Promise<bigint[]>;
  truncate(): Promise<void>;
  drop(): Promise<void>;
}

export async function createOutboxDatabase(label: string): Promise<OutboxDatabase> {
  const databaseUrl = await createEmptyTestDatabase(label);
  const setup = new Client({ connectionString: databaseUrl });
  await setup.connect();
  try {
    await setup.query(OUTBOX_TABLE);
  } finally {
    await setup.end();
  }
  const pool = new Pool({ connectionString: databaseUrl, max: 3 });
  return {
    url: databaseUrl,
    pool,
    async write(rows, client = pool) {
      const written = await client.query<Row>(
        `INSERT INTO outbox (subject, payload, json)
         SELECT subject, payload, json FROM unnest($1::text[], $2::jsonb[], $3::text[]) WITH ORDINALITY AS r(subject, payload, json, n)
         ORDER BY n
         RETURNING id::text, subject, payload, json`,
        [
          rows.map((r) => r.subject),
          rows.map((r) => ('payload' in r ? JSON.stringify(r.payload) : null)),
          rows.map((r) => ('json' in r ? r.json : null)),
        ],
      );
      return written.rows.map(record).sort((a, b) => (a.id < b.id ? -1 : 1));
    },
    async unpublished() {
      const rows = await pool.query<{ id: string }>('SELECT id::text FROM outbox WHERE published_at IS NULL ORDER BY outbox.id');
      return rows.rows.map((r) => BigInt(r.id));
    },
    async truncate() {
      await pool.query('TRUNCATE outbox');
    },
    async drop() {
      await pool.end();
      await dropDatabase(databaseUrl);
    },
  };
}

/**
 * The relay's store on that table, read and marked as the catalog's `CatalogOutbox` does, through a
 * pool of its own (which a test may route through `databaseRelay` to take the database away).
 */
export class PgOutboxStore implements OutboxStore {
  /** How many times the relay read the table. */
  polls = 0;
  /** Runs before a mark's UPDATE: where a test takes the database away between a publish and its mark. */
  beforeMark?: () => Promise<void>;
  /** Runs after a read, before its rows are answered: where a test holds a poll whose snapshot is past. */
  afterRead?: () => Promise<void>;

  constructor(private readonly pool: Pool) {}

  async pending(limit: number): Promise<OutboxRecord[]> {
    this.polls++;
    // `outbox.id`, the bigint: a bare `id` would name the output column `id::text` and sort as text.
    const rows = await this.pool.query<Row>(
      'SELECT id::text, subject, payload, json FROM outbox WHERE published_at IS NULL ORDER BY outbox.id LIMIT $1',
      [limit],
    );
    await this.afterRead?.();
    return rows.rows.map(record);
  }

  async markPublished(ids: bigint[]): Promise<void> {
    await this.beforeMark?.();
    await this.pool.query('UPDATE outbox SET published_at = now() WHERE id = ANY($1::bigint[])', [ids.map(String)]);
  }
}
