import { execFile } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, dropDatabase } from '@exchange/service-kit';
import { deleteStreams, TEST_NATS_URL, testPrefix } from '@exchange/testing';
import { REPO_ROOT } from '../src/stack';

const run = promisify(execFile);
const catalogDir = path.join(REPO_ROOT, 'apps/catalog');
const fixture = path.join(catalogDir, 'test/fixtures/upstream-events.json');

describe('the import command', () => {
  const prefix = testPrefix('cli');
  let databaseUrl: string;

  beforeAll(async () => {
    databaseUrl = await createTestDatabase(catalogDir, 'cli');
  });
  afterAll(async () => {
    await dropDatabase(databaseUrl);
    await deleteStreams(prefix);
  });

  const importFile = async (...args: string[]) => {
    const { stdout } = await run(process.execPath, ['dist/import-cli.js', ...args], {
      cwd: catalogDir,
      env: { ...process.env, DATABASE_URL: databaseUrl, NATS_URL: TEST_NATS_URL, NATS_PREFIX: prefix, LOG_LEVEL: 'error' },
    });
    return JSON.parse(stdout) as { created: { slug: string }[]; skipped: { slug: string; reason: string }[] };
  };

  it('imports an upstream file into the database, and a second run skips everything', async () => {
    const first = await importFile(fixture);
    expect(first.created.length).toBeGreaterThanOrEqual(3);
    expect(first.skipped).toEqual([]);
    const second = await importFile(fixture);
    expect(second.created).toEqual([]);
    expect(second.skipped.map((s) => s.slug)).toEqual(first.created.map((c) => c.slug));
  });

  it('refuses an unknown site and a missing file with a message and a non-zero exit', async () => {
    const events = JSON.parse(readFileSync(fixture, 'utf8'));
    const renamed = path.join(tmpdir(), `${prefix}-events.json`);
    writeFileSync(renamed, JSON.stringify([{ ...events[0], slug: `${prefix}-event`, markets: [{ ...events[0].markets[0], slug: `${prefix}-market` }] }]));
    try {
      const unknownSite = await importFile(renamed, '--sites=no-such-site');
      expect(unknownSite).toMatchObject({ status: 'done', total: 1, created: [], skipped: [{ slug: `${prefix}-event`, reason: 'no site or creator "no-such-site"' }] });
    } finally {
      rmSync(renamed, { force: true });
    }
    await expect(importFile('/nonexistent.json')).rejects.toMatchObject({ code: 1 });
    await expect(importFile()).rejects.toMatchObject({ stderr: expect.stringContaining('usage:') });
  });
});
