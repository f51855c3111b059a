import type { CatalogEvent } from '@exchange/contracts';
import { aMarket, anEvent, SITE_A, SITE_B, uniqueSlug } from '../support/builders';
import { startCatalog, type CatalogUnderTest } from '../support/catalog-harness';

describe('catalog queries (real PostgreSQL and NATS)', () => {
  let catalog: CatalogUnderTest;
  let tagSlug: string;
  const created: CatalogEvent[] = [];

  beforeAll(async () => {
    catalog = await startCatalog();
    await catalog.data('catalog.admin.sites.create.v1', SITE_A);
    await catalog.data('catalog.admin.sites.create.v1', SITE_B);
    tagSlug = uniqueSlug('tag');
    const bodies = [
      anEvent({ title: 'Alpha', endDate: '2027-03-01T00:00:00Z', tags: [tagSlug], sites: ['site-a'] }),
      anEvent({
        title: 'Bravo',
        endDate: '2027-01-01T00:00:00Z',
        tags: [tagSlug, 'Other Tag'],
        sites: [SITE_B.creatorAddress.toLowerCase()],
        series: { slug: uniqueSlug('series'), title: 'A series' },
        markets: [aMarket(), aMarket({ question: 'Second?' })],
      }),
      anEvent({ title: 'Charlie', endDate: '2027-02-01T00:00:00Z', sites: ['site-a', 'site-b'] }),
      anEvent({ title: 'Delta', endDate: '2027-04-01T00:00:00Z' }),
    ];
    for (const body of bodies) created.push(await catalog.data('catalog.admin.events.create.v1', { body }));
    await catalog.data('catalog.admin.events.patch.v1', { id: created[3]!.id, body: { closed: true } });
  });

  afterAll(() => catalog.stop());

  const titles = (events: { title: string }[]) => events.map((e) => e.title);

  it('lists events by id with the default page', async () => {
    const events = await catalog.data('catalog.events.list.v1', {});
    expect(titles(events)).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta']);
    expect(events[0]).not.toHaveProperty('creationDate');
    expect(events[0]).not.toHaveProperty('series');
    expect(Object.keys(events[0]!.markets[0]!).sort()).toEqual(
      ['clobTokenIds', 'conditionId', 'id', 'mirrorClobTokenIds', 'mirrorConditionId', 'question'].sort(),
    );
  });

  it('pages with limit and offset', async () => {
    expect(titles(await catalog.data('catalog.events.list.v1', { limit: '2' }))).toEqual(['Alpha', 'Bravo']);
    expect(titles(await catalog.data('catalog.events.list.v1', { limit: '2', offset: '2' }))).toEqual(['Charlie', 'Delta']);
    expect(await catalog.data('catalog.events.list.v1', { offset: '10' })).toEqual([]);
  });

  it('filters by the status flags', async () => {
    expect(titles(await catalog.data('catalog.events.list.v1', { closed: 'true' }))).toEqual(['Delta']);
    expect(titles(await catalog.data('catalog.events.list.v1', { closed: 'false', active: 'true' }))).toEqual([
      'Alpha',
      'Bravo',
      'Charlie',
    ]);
    expect(await catalog.data('catalog.events.list.v1', { archived: 'true' })).toEqual([]);
  });

  it('filters by tag slug, its alias, tag id and series', async () => {
    expect(titles(await catalog.data('catalog.events.list.v1', { tag_slug: tagSlug }))).toEqual(['Alpha', 'Bravo']);
    expect(titles(await catalog.data('catalog.events.list.v1', { tag: tagSlug }))).toEqual(['Alpha', 'Bravo']);
    const other = created[1]!.tags.find((t) => t.slug === 'other-tag')!;
    expect(titles(await catalog.data('catalog.events.list.v1', { tag_id: other.id }))).toEqual(['Bravo']);
    const series = created[1]!.series[0]!;
    expect(titles(await catalog.data('catalog.events.list.v1', { series_slug: series.slug }))).toEqual(['Bravo']);
    expect(await catalog.data('catalog.events.list.v1', { tag_slug: 'no-such-tag' })).toEqual([]);
  });

  it('filters by slug', async () => {
    expect(titles(await catalog.data('catalog.events.list.v1', { slug: created[2]!.slug }))).toEqual(['Charlie']);
  });

  it("filters by upstream's id[] and slug[], given once or repeated (ignored until the eighteenth session: a client asking for one event got the first page)", async () => {
    const [alpha, bravo, charlie] = created.map((e) => String(e.id));
    expect(titles(await catalog.data('catalog.events.list.v1', { id: bravo }))).toEqual(['Bravo']);
    expect(titles(await catalog.data('catalog.events.list.v1', { 'id[]': [charlie, alpha] }))).toEqual(['Alpha', 'Charlie']);
    expect(titles(await catalog.data('catalog.events.list.v1', { 'slug[]': [created[1]!.slug, created[3]!.slug] }))).toEqual(['Bravo', 'Delta']);
    expect(titles(await catalog.data('catalog.events.list.v1', { id: alpha, 'slug[]': created[1]!.slug }))).toEqual([]);
    expect(await catalog.request('catalog.events.list.v1', { 'id[]': ['1', 'one'] })).toMatchObject({ status: 400, body: { error: 'id[] must be an integer' } });
  });

  it('sorts by a response column in either direction', async () => {
    expect(titles(await catalog.data('catalog.events.list.v1', { order: 'endDate', ascending: 'true' }))).toEqual([
      'Bravo',
      'Charlie',
      'Alpha',
      'Delta',
    ]);
    expect(titles(await catalog.data('catalog.events.list.v1', { order: 'endDate' }))).toEqual(['Delta', 'Alpha', 'Charlie', 'Bravo']);
    expect(titles(await catalog.data('catalog.events.list.v1', { order: 'title', ascending: 'false' }))).toEqual([
      'Delta',
      'Charlie',
      'Bravo',
      'Alpha',
    ]);
  });

  it('shows a site only the events and markets listed for it', async () => {
    expect(titles(await catalog.data('catalog.events.list.v1', { creator: 'site-a' }))).toEqual(['Alpha', 'Charlie']);
    expect(titles(await catalog.data('catalog.events.list.v1', { creator: SITE_B.creatorAddress }))).toEqual(['Bravo', 'Charlie']);
    expect(titles(await catalog.data('catalog.events.list.v1', { creator: SITE_B.creatorAddress.toUpperCase().replace('0X', '0x') }))).toEqual([
      'Bravo',
      'Charlie',
    ]);
    const unknown = await catalog.request('catalog.events.list.v1', { creator: 'nobody' });
    expect(unknown).toMatchObject({ ok: false, status: 404, body: { code: 'site_not_found' } });
  });

  it('gets one event by id or slug, with every field', async () => {
    const bravo = created[1]!;
    const byId = await catalog.data('catalog.events.get.v1', { id: bravo.id });
    const bySlug = await catalog.data('catalog.events.get.v1', { slug: bravo.slug });
    expect(bySlug).toEqual(byId);
    expect(byId.markets).toHaveLength(2);
    expect(byId.series).toHaveLength(1);
    expect(byId.tags.map((t) => t.slug)).toEqual([tagSlug, 'other-tag']);
    expect(byId.eventMetadata).toEqual({});
    expect(byId.creationDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  it('answers 404 for an unknown event or one the site does not see', async () => {
    expect(await catalog.request('catalog.events.get.v1', { id: 999_999 })).toMatchObject({ status: 404, body: { code: 'event_not_found' } });
    expect(await catalog.request('catalog.events.get.v1', { slug: 'no-such-event' })).toMatchObject({ status: 404 });
    expect(await catalog.request('catalog.events.get.v1', { id: created[1]!.id, creator: 'site-a' })).toMatchObject({ status: 404 });
    expect(await catalog.request('catalog.events.get.v1', { id: created[0]!.id, creator: 'site-a' })).toMatchObject({ ok: true });
  });

  it('gets a market by numeric id or condition id, with its event', async () => {
    const market = created[1]!.markets[1]!;
    const byId = await catalog.data('catalog.markets.get.v1', { id: market.id });
    const byCondition = await catalog.data('catalog.markets.get.v1', { id: market.conditionId.toUpperCase().replace('0X', '0x') });
    expect(byCondition).toEqual(byId);
    expect(byId.question).toBe('Second?');
    expect(byId.events.map((e) => e.id)).toEqual([created[1]!.id]);
    expect(JSON.parse(byId.clobTokenIds)).toEqual(JSON.parse(market.clobTokenIds));
    expect(await catalog.request('catalog.markets.get.v1', { id: market.id, creator: 'site-a' })).toMatchObject({ status: 404 });
    expect(await catalog.request('catalog.markets.get.v1', { id: '999999' })).toMatchObject({ status: 404, body: { code: 'market_not_found' } });
  });

  it('lists tags and finds by text', async () => {
    const tags = await catalog.data('catalog.tags.list.v1', { order: 'slug' });
    expect(tags.map((t) => t.slug)).toEqual(expect.arrayContaining([tagSlug, 'other-tag', 'testing']));
    const found = await catalog.data('catalog.search.v1', { q: 'charl' });
    expect(titles(found.events)).toEqual(['Charlie']);
    expect(found.pagination).toEqual({ hasMore: false, totalResults: 1 });
    const tagHit = await catalog.data('catalog.search.v1', { q: 'other tag' });
    expect(tagHit.tags).toEqual([{ id: expect.any(String), label: 'Other Tag', slug: 'other-tag', event_count: 1 }]);
    // LIKE wildcards in the text are matched literally.
    expect((await catalog.data('catalog.search.v1', { q: '_' })).events).toEqual([]);
    expect((await catalog.data('catalog.search.v1', { q: '%' })).events).toEqual([]);
    const profile = await catalog.data('catalog.search.v1', { q: 'site b' });
    expect(profile.profiles.map((p) => p.proxyWallet)).toEqual([SITE_B.creatorAddress]);
  });

  it('refuses an invalid payload with 400 even when a caller skips the gateway', async () => {
    expect(await catalog.request('catalog.events.list.v1', { limit: 1000 })).toMatchObject({ status: 400, body: { code: 'invalid_request' } });
  });
});
