/** What runs SQL: a pg Client or Pool (this package does not depend on pg). */
export interface SqlRunner {
  query(text: string): Promise<{ rows: unknown[] }>;
}

/** A table whose inserts PostgreSQL refuses on a test's word (`refusedInserts`). */
export interface RefusedInserts {
  /** Refuses the next `times` inserts (every one by default) and counts the refusals from zero. */
  refuse(times?: number): Promise<void>;
  /** Lets inserts through again. */
  allow(): Promise<void>;
  /** Inserts refused since the last `refuse`. */
  refusals(): Promise<number>;
  /** Drops the trigger and what it used. */
  remove(): Promise<void>;
}

/**
 * Makes PostgreSQL refuse inserts into `table` as its own failures would, with SQLSTATE `condition` (a
 * PL/pgSQL condition name: disk_full for a table that cannot grow, internal_error...): a BEFORE INSERT
 * trigger raises it while `refuse` holds. A sequence counts the refusals: nextval is not rolled back with
 * the refused statement.
 */
export async function refusedInserts(db: SqlRunner, table: string, condition: string): Promise<RefusedInserts> {
  const [limit, count, fn] = [`${table}_refusing`, `${table}_refusals`, `refuse_${table}`];
  await db.query(`CREATE TABLE ${limit} (upto bigint NOT NULL); CREATE SEQUENCE ${count}`);
  const refused = `(SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM ${count})`;
  await db.query(`CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF ${refused} < (SELECT max(upto) FROM ${limit}) THEN
        PERFORM nextval('${count}');
        RAISE EXCEPTION 'an insert into % refused by a test', TG_TABLE_NAME USING ERRCODE = '${condition}';
      END IF;
      RETURN NEW;
    END $$`);
  await db.query(`CREATE TRIGGER ${fn} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION ${fn}()`);
  return {
    async refuse(times = Number.MAX_SAFE_INTEGER) {
      await db.query(`ALTER SEQUENCE ${count} RESTART; DELETE FROM ${limit}; INSERT INTO ${limit} VALUES (${times})`);
    },
    async allow() {
      await db.query(`DELETE FROM ${limit}`);
    },
    async refusals() {
      const [{ n }] = (await db.query(`SELECT ${refused} AS n`)).rows as [{ n: string }];
      return Number(n);
    },
    async remove() {
      await db.query(`DROP TRIGGER ${fn} ON ${table}; DROP FUNCTION ${fn}; DROP TABLE ${limit}; DROP SEQUENCE ${count}`);
    },
  };
}
