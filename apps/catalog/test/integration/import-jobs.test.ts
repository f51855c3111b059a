import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Pool } from 'pg';
import type { ImportReport } from '@exchange/contracts';
import { until } from '@exchange/testing';
import { ImportService } from '../../src/import/import.service';
import { upstreamMarketAs } from '../support/builders';
import { startCatalog, type CatalogUnderTest } from '../support/catalog-harness';

type UpstreamEvent = { id: string; slug: string; markets: { slug: string }[] };
const fixture: UpstreamEvent[] = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/upstream-events.json'), 'utf8'));

/** `count` upstream events of one market each, slugs and ids made from `name`. */
const upstreamEvents = (name: string, count: number): UpstreamEvent[] =>
  Array.from({ length: count }, (_, i) => ({
    ...fixture[0]!,
    id: `${name}-${i}`,
    slug: `${name}-${i}`,
    markets: [upstreamMarketAs(fixture[0]!.markets[0]!, `${name}-${i}-market`)],
  }));

/**
 * Imports in the background (real PostgreSQL and NATS), with the request that starts one waiting 0 ms:
 * every import is answered while it runs. A probe found imports of a few hundred events answered 503 by
 * the gateway after its 5 s while they went on, their reports lost.
 */
describe('imports that outlast their request', () => {
  let catalog: CatalogUnderTest;
  let db: Pool;

  beforeAll(async () => {
    catalog = await startCatalog({ env: { IMPORT_WAIT_MS: '0' } });
    db = new Pool({ connectionString: catalog.databaseUrl });
  });
  afterAll(async () => {
    await db.end();
    await catalog.stop();
  });

  const get = (id: string) => catalog.request('catalog.admin.imports.get.v1', { id });
  // 200 events take about 4 s alone; a CI run of other suites on the same two cores made it more than 20.
  const finished = (id: string) =>
    until(async () => {
      const reply = await get(id);
      return reply.ok && reply.data.status !== 'running' ? reply.data : undefined;
    }, 60_000);
  let done: ImportReport;

  it('answers a running import with its id and progress, then gives its report, from its table once the process is gone', async () => {
    const started = await catalog.data('catalog.admin.import.v1', { events: upstreamEvents('bg', 40) });
    expect(started).toMatchObject({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), status: 'running', total: 40, finishedAt: null });

    done = await finished(started.id);
    expect(done).toMatchObject({ id: started.id, status: 'done', total: 40, skipped: [], startedAt: started.startedAt, finishedAt: expect.any(String) });
    expect(done.created.map((c) => c.slug)).toEqual(upstreamEvents('bg', 40).map((e) => e.slug));
    expect(done.error).toBeUndefined();
    expect(await catalog.data('catalog.events.get.v1', { slug: 'bg-39' })).toMatchObject({ slug: 'bg-39' });

    await catalog.restart();
    expect(await get(started.id)).toEqual({ ok: true, data: done });
  });

  it('stops an import when the catalog stops, reads it as interrupted, and a second import of the same events creates the rest', async () => {
    const events = upstreamEvents('cut', 200);
    const started = await catalog.data('catalog.admin.import.v1', { events });
    await until(async () => {
      const reply = await get(started.id);
      return reply.ok && reply.data.created.length >= 5 ? true : undefined;
    });
    await catalog.restart();

    const cut = await finished(started.id);
    expect(cut).toMatchObject({ status: 'interrupted', error: 'the catalog was stopped during the import', finishedAt: expect.any(String) });
    const tried = cut.created.length + cut.skipped.length;
    expect(tried).toBeGreaterThanOrEqual(5);
    expect(tried).toBeLessThan(200);

    const again = await finished((await catalog.data('catalog.admin.import.v1', { events })).id);
    expect(again.status).toBe('done');
    expect(again.created.length).toBe(200 - cut.created.length);
    expect(again.skipped.map((s) => s.slug)).toEqual(cut.created.map((c) => c.slug));
  }, 120_000);

  it('reads an import whose runner stopped writing as interrupted', async () => {
    await db.query("UPDATE imports SET status = 'running', finished_at = NULL, updated_at = now() - interval '1 minute' WHERE id = $1", [done.id]);
    expect(await get(done.id)).toMatchObject({
      ok: true,
      data: { id: done.id, status: 'interrupted', error: 'the catalog process running the import stopped before it finished', created: done.created },
    });
    const [{ updated_at }] = (await db.query<{ updated_at: Date }>('SELECT updated_at FROM imports WHERE id = $1', [done.id])).rows;
    // Finished at its last sign of life.
    expect((await catalog.data('catalog.admin.imports.get.v1', { id: done.id })).finishedAt).toBe(updated_at!.toISOString());
  });

  it('answers an unknown import id with 404 and a malformed one with 400', async () => {
    expect(await get('0b5c2a7e-8d1f-4c3b-9a6e-2f4d5c6b7a89')).toMatchObject({ ok: false, status: 404, body: { code: 'import_not_found' } });
    expect(await get('42')).toMatchObject({ ok: false, status: 400, body: { code: 'invalid_request', error: 'id must be an import id (a UUID)' } });
  });

  it('keeps the report of skips that quote half an emoji, and skips an event whose outcomes hold a NUL while creating the rest', async () => {
    const [first, emoji, nul, last] = upstreamEvents('quoted', 4);
    // V8's JSON.parse message quotes the bad text cut in half the emoji; the report's row refused it on
    // every save, and read as interrupted with nothing created (a probe).
    emoji!.markets[0] = { ...emoji!.markets[0]!, outcomes: '😀' } as UpstreamEvent['markets'][number];
    // A NUL inside the outcomes' own JSON passed the gateway, failed the database and stopped the import.
    nul!.markets[0] = { ...nul!.markets[0]!, outcomes: '["Yes\\u0000","No"]' } as UpstreamEvent['markets'][number];
    const started = await catalog.data('catalog.admin.import.v1', { events: [first, emoji, nul, last] });
    const report = await finished(started.id);
    expect(report).toMatchObject({ status: 'done', created: [{ slug: 'quoted-0' }, { slug: 'quoted-3' }] });
    expect(report.skipped).toEqual([
      { slug: 'quoted-1', reason: expect.stringContaining('\ufffd') },
      { slug: 'quoted-2', reason: 'request text may not contain a NUL character (U+0000) or an unpaired UTF-16 surrogate' },
    ]);
    const [{ skipped }] = (await db.query<{ skipped: unknown }>('SELECT skipped FROM imports WHERE id = $1', [started.id])).rows;
    expect(skipped).toEqual(report.skipped);
  });

  it('refuses an import that arrives once the catalog is stopping, creating nothing (a probe saw one started into the closing database)', async () => {
    const importer = catalog.service(ImportService);
    await importer.beforeApplicationShutdown();
    expect(await importer.import({ events: upstreamEvents('late', 3), sites: [] })).toEqual({
      ok: false,
      status: 503,
      body: { code: 'service_unavailable', error: 'the catalog is stopping: nothing was imported; send the import again', retry_after_seconds: 1 },
    });
    expect(await catalog.request('catalog.events.get.v1', { slug: 'late-0' })).toMatchObject({ ok: false, status: 404 });
    expect((await db.query("SELECT count(*)::int AS n FROM imports WHERE total = 3 AND created = '[]'::jsonb AND skipped = '[]'::jsonb")).rows[0].n).toBe(0);
  });
});
