import { randomBytes } from 'node:crypto';
import { adminDatabaseUrl, ensureDatabase } from '../../src/database/databases';

/** Creates an empty database with a random name (`label` in it) on the test server; answers its URL. */
export async function scratchDatabase(label: string): Promise<string> {
  const url = new URL(adminDatabaseUrl());
  url.pathname = `/test_${label}_${randomBytes(5).toString('hex')}`;
  const databaseUrl = url.toString();
  await ensureDatabase(databaseUrl);
  return databaseUrl;
}
