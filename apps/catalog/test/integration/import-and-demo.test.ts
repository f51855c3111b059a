import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { readStream, until } from '@exchange/testing';
import { demoEvents, demoSites } from '../../src/demo/demo-catalog';
import { nestedArrays, upstreamMarketAs } from '../support/builders';
import { startCatalog, type CatalogUnderTest } from '../support/catalog-harness';

const fixture: { slug: string; markets: { conditionId: string; clobTokenIds: string }[] }[] = JSON.parse(
  readFileSync(path.join(__dirname, '../fixtures/upstream-events.json'), 'utf8'),
);

describe('upstream import and demo catalog (real PostgreSQL and NATS)', () => {
  let catalog: CatalogUnderTest;

  beforeAll(async () => {
    catalog = await startCatalog({ demo: true });
  });
  afterAll(() => catalog.stop());

  const allEvents = async () => {
    const events = [];
    for (let offset = 0; ; offset += 100) {
      const page = await catalog.data('catalog.events.list.v1', { limit: 100, offset });
      events.push(...page);
      if (page.length < 100) return events;
    }
  };

  it('loads the demo catalog on the first start: events, markets, tags, series and sites', async () => {
    const events = await allEvents();
    expect(events).toHaveLength(demoEvents.length);
    expect(events.length).toBeGreaterThanOrEqual(20);
    expect(events.flatMap((e) => e.markets).length).toBeGreaterThanOrEqual(60);
    expect((await catalog.data('catalog.admin.sites.list.v1', {})).map((s) => s.id)).toEqual(demoSites.map((s) => s.id).sort());
    const series = new Set<string>();
    for (const event of events) {
      for (const s of (await catalog.data('catalog.events.get.v1', { id: event.id })).series) series.add(s.slug);
    }
    expect(series.size).toBe(2);
  });

  it('does not load the demo again after a restart, and ids stay the same', async () => {
    const before = await allEvents();
    await catalog.restart();
    expect(await allEvents()).toEqual(before);
  });

  it('imports upstream events with their ids as mirror ids, skipping what exists', async () => {
    const report = await catalog.data('catalog.admin.import.v1', { events: fixture, sites: [demoSites[0]!.id] });
    expect(report.skipped).toEqual([]);
    expect(report.created.map((c) => c.slug)).toEqual(fixture.map((e) => e.slug));
    expect(report.created.map((c) => c.markets)).toEqual(fixture.map((e) => e.markets.length));

    for (const upstream of fixture) {
      const local = await catalog.data('catalog.events.get.v1', { slug: upstream.slug, creator: demoSites[0]!.id });
      expect(local.markets.map((m) => m.mirrorConditionId)).toEqual(upstream.markets.map((m) => m.conditionId.toLowerCase()));
      expect(local.markets.map((m) => JSON.parse(m.mirrorClobTokenIds))).toEqual(upstream.markets.map((m) => JSON.parse(m.clobTokenIds)));
      for (const market of local.markets) expect(market.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
    }

    const again = await catalog.data('catalog.admin.import.v1', { events: fixture });
    expect(again.created).toEqual([]);
    expect(again.skipped.map((s) => s.reason)).toEqual(fixture.map((e) => `event slug "${e.slug}" is taken`));
  });

  it('keeps importing the good events when one is bad', async () => {
    const bad = { ...fixture[0], slug: 'broken-upstream-event', markets: [upstreamMarketAs(fixture[0]!.markets[0]!, 'broken-upstream-yes', { clobTokenIds: '["1"]' })] };
    const report = await catalog.data('catalog.admin.import.v1', { events: [bad] });
    expect(report.created).toEqual([]);
    expect(report.skipped).toEqual([{ slug: 'broken-upstream-event', reason: expect.stringContaining('clobTokenIds') }]);
  });

  it('skips an event whose eventMetadata is nested too deep and imports the others', async () => {
    const source = fixture[0]!;
    const event = (slug: string, eventMetadata: unknown) => ({ ...source, id: slug, slug, eventMetadata, markets: [upstreamMarketAs(source.markets[0]!, `${slug}-yes`)] });
    // The deep one failed in the database, which answered the whole import with a 500.
    const report = await catalog.data('catalog.admin.import.v1', {
      events: [event('deep-metadata-event', { a: nestedArrays(125) }), event('plain-metadata-event', { league: 'x' })],
    });
    expect(report.skipped).toEqual([{ slug: 'deep-metadata-event', reason: 'eventMetadata must not be nested more than 32 levels deep' }]);
    expect(report.created.map((c) => c.slug)).toEqual(['plain-metadata-event']);
  });

  it('skips an event dated outside the years 1 to 9999 and one whose upstream id is imported already, with reasons that say so', async () => {
    const source = fixture[0]!;
    const event = (slug: string, id: string, endDate?: string) => ({
      ...source,
      id,
      slug,
      markets: [upstreamMarketAs(source.markets[0]!, `${slug}-yes`, endDate ? { endDate } : {})],
    });
    // Year 0 reached PostgreSQL, which answered the whole import with a 500 after the first event.
    const report = await catalog.data('catalog.admin.import.v1', {
      events: [event('dated-first', 'up-dated-1'), event('year-zero', 'up-year-0', '0000-06-01T00:00:00Z'), event('dated-last', 'up-dated-2')],
    });
    expect(report.created.map((c) => c.slug)).toEqual(['dated-first', 'dated-last']);
    expect(report.skipped).toEqual([{ slug: 'year-zero', reason: expect.stringContaining('between the years 1 and 9999') }]);
    // The same upstream id under another slug: it was told to retry a race that never ends.
    const again = await catalog.data('catalog.admin.import.v1', { events: [event('dated-renamed', 'up-dated-1')] });
    expect(again.skipped).toEqual([{ slug: 'dated-renamed', reason: 'upstream event up-dated-1 is imported already, as "dated-first"' }]);
  });

  it('makes one local market per upstream market: a second event naming one, or an event naming one twice, is skipped', async () => {
    const source = fixture[0]!;
    const market = upstreamMarketAs(source.markets[0]!, 'shared-upstream-yes');
    const other = upstreamMarketAs(source.markets[0]!, 'twice-a');
    // The same upstream condition id in another case: the mirror keeps it lower-case.
    const otherAgain = { ...other, slug: 'twice-b', conditionId: `0x${other.conditionId.slice(2).toUpperCase()}` };
    const report = await catalog.data('catalog.admin.import.v1', {
      events: [
        { ...source, id: 'up-shared-1', slug: 'shared-first', markets: [market] },
        // Imported too until the twenty-first session: two local markets for one upstream market (a probe).
        { ...source, id: 'up-shared-2', slug: 'shared-second', markets: [{ ...market, slug: 'shared-second-yes' }] },
        { ...source, id: 'up-shared-3', slug: 'shared-twice', markets: [other, otherAgain] },
      ],
    });
    expect(report.created.map((c) => c.slug)).toEqual(['shared-first']);
    expect(report.skipped).toEqual([
      { slug: 'shared-second', reason: `upstream market ${market.conditionId} is imported already, as "shared-upstream-yes"` },
      { slug: 'shared-twice', reason: `upstream market ${other.conditionId} appears twice in the event` },
    ]);
  });

  it('makes one local market per upstream market when imports naming it run at the same moment', async () => {
    const source = fixture[0]!;
    // Pairs of events naming one fresh upstream market each, every import at once.
    const pairs = Array.from({ length: 4 }, (_, i) => {
      const market = { ...upstreamMarketAs(source.markets[0]!, `race-${i}-yes`), conditionId: `0x${randomBytes(32).toString('hex')}` };
      return [1, 2].map((n) => ({ ...source, id: `up-race-${i}-${n}`, slug: `race-${i}-event-${n}`, markets: [{ ...market, slug: `race-${i}-yes-${n}` }] }));
    });
    const reports = await Promise.all(pairs.flat().map((event) => catalog.data('catalog.admin.import.v1', { events: [event] })));
    // Until the twenty-second session only the writer's check held it, and both of a pair could pass it.
    for (const [i, pair] of pairs.entries()) {
      const [first, second] = [reports[2 * i]!, reports[2 * i + 1]!];
      expect(first.created.length + second.created.length).toBe(1);
      const skipped = [...first.skipped, ...second.skipped];
      expect(skipped).toHaveLength(1);
      expect(skipped[0]!.reason).toMatch(new RegExp(`^upstream market ${pair[0]!.markets[0]!.conditionId} is imported already`));
    }
  });

  it('imports an upstream event that ends before it starts as published (the operator\'s create refuses one)', async () => {
    const source = fixture[0]!;
    const report = await catalog.data('catalog.admin.import.v1', {
      events: [
        {
          ...source,
          id: 'up-backwards',
          slug: 'backwards-upstream',
          startDate: '2027-07-01T00:00:00Z',
          endDate: '2027-06-30T00:00:00Z',
          markets: [upstreamMarketAs(source.markets[0]!, 'backwards-upstream-yes', { startDate: '2027-07-01T00:00:00Z', endDate: '2027-06-30T00:00:00Z' })],
        },
      ],
    });
    expect(report.skipped).toEqual([]);
    const event = await catalog.data('catalog.events.get.v1', { slug: 'backwards-upstream' });
    expect([event.startDate, event.endDate]).toEqual(['2027-07-01T00:00:00.000Z', '2027-06-30T00:00:00.000Z']);
  });

  it('has published a created event for every market of the demo and the import', async () => {
    const total = (await allEvents()).flatMap((e) => e.markets).length;
    let created = 0;
    await until(async () => {
      created = (await readStream(catalog.prefix, 'CATALOG')).filter((m) => m.subject === 'catalog.evt.market.created.v1').length;
      return created === total ? true : undefined;
    }, 10_000, 'a created event for every market').catch(() => undefined);
    // The count last read: a failure says how many were published.
    expect(created).toBe(total);
  });
});
