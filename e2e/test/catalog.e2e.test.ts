import { readFileSync } from 'node:fs';
import path from 'node:path';
import { toChecksumAddress } from '@exchange/chain';
import { until } from '@exchange/testing';
import { CATALOG_EVENT, CATALOG_MARKET, EVENT_LIST_ITEM, shapeErrors } from '../src/shapes';
import { getJson, json } from '../src/http';
import { REPO_ROOT, startStack, type Stack } from '../src/stack';

const SITE = { id: 'e2e-site', name: 'E2E Site', creatorAddress: toChecksumAddress(`0x${'c3'.repeat(20)}`) };
const OTHER_SITE = { id: 'other-site', name: 'Other', creatorAddress: toChecksumAddress(`0x${'d4'.repeat(20)}`) };

const market = (slug: string, extra: Record<string, unknown> = {}) => ({
  question: `Will ${slug} happen?`,
  slug,
  outcomes: ['Yes', 'No'],
  tickSize: '0.01',
  minOrderSize: '5',
  negRisk: false,
  ...extra,
});

describe('catalog through the gateway over HTTP', () => {
  let stack: Stack;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    stack = await startStack();
    expect((await stack.admin('POST', '/admin/sites', SITE)).status).toBe(201);
    expect((await stack.admin('POST', '/admin/sites', OTHER_SITE)).status).toBe(201);
    const events = [
      { title: 'Fed cuts in March?', slug: 'fed-march', endDate: '2027-03-20T18:00:00Z', tags: ['Economics', 'Fed'], sites: [SITE.id], markets: [market('fed-cut-25'), market('fed-cut-50')] },
      { title: 'Rain in Paris', slug: 'rain-paris', endDate: '2027-01-10T00:00:00Z', tags: ['Weather'], sites: [OTHER_SITE.creatorAddress], markets: [market('rain-paris-monday', { tickSize: '0.001' })] },
      { title: 'Champions final', slug: 'champions-final', endDate: '2027-05-30T20:00:00Z', tags: ['Sports'], series: { slug: 'finals', title: 'Finals' }, sites: [SITE.id, OTHER_SITE.id], markets: [market('final-home-wins')] },
    ];
    for (const event of events) {
      const response = await stack.admin('POST', '/admin/events', { description: `About ${event.title}`, ...event });
      expect(response.status).toBe(201);
      const body = await json(response);
      expect(shapeErrors(body, CATALOG_EVENT)).toEqual([]);
      ids[event.slug] = body.id;
    }
  });

  afterAll(() => stack?.stop());

  const get = (path: string, base = stack.base) => getJson(base + path);

  it('lists events with every field of SPEC.md in its JSON type', async () => {
    const { status, body } = await get('/events');
    expect(status).toBe(200);
    expect(body.map((e: { slug: string }) => e.slug)).toEqual(['fed-march', 'rain-paris', 'champions-final']);
    expect(shapeErrors(body, [EVENT_LIST_ITEM])).toEqual([]);
  });

  it('pages, filters and sorts', async () => {
    const slugs = async (query: string) => (await get(`/events?${query}`)).body.map((e: { slug: string }) => e.slug);
    expect(await slugs('limit=1&offset=1')).toEqual(['rain-paris']);
    expect(await slugs('limit=100&offset=3')).toEqual([]);
    expect(await slugs('tag_slug=weather')).toEqual(['rain-paris']);
    expect(await slugs('tag=fed')).toEqual(['fed-march']);
    expect(await slugs('series_slug=finals')).toEqual(['champions-final']);
    expect(await slugs('slug=rain-paris')).toEqual(['rain-paris']);
    // Upstream's array filters, as clients encode them (ignored until the eighteenth session).
    expect(await slugs(`id[]=${ids['rain-paris']}&id[]=${ids['fed-march']}`)).toEqual(['fed-march', 'rain-paris']);
    expect(await slugs(`id=${ids['champions-final']}`)).toEqual(['champions-final']);
    expect(await slugs('slug[]=rain-paris&slug[]=champions-final')).toEqual(['rain-paris', 'champions-final']);
    expect(await get('/events?order=title&order=id')).toEqual({ status: 400, body: { error: 'order must be given once, as a comma list', code: 'invalid_request' } });
    expect(await slugs('order=endDate&ascending=true')).toEqual(['rain-paris', 'fed-march', 'champions-final']);
    expect(await slugs('order=endDate')).toEqual(['champions-final', 'fed-march', 'rain-paris']);
    expect(await slugs('active=true&closed=false')).toHaveLength(3);
  });

  it('applies the creator filter by site id or creator address', async () => {
    const slugs = async (query: string) => (await get(`/events?${query}`)).body.map((e: { slug: string }) => e.slug);
    expect(await slugs(`creator=${SITE.id}`)).toEqual(['fed-march', 'champions-final']);
    expect(await slugs(`creator=${OTHER_SITE.creatorAddress.toLowerCase()}`)).toEqual(['rain-paris', 'champions-final']);
    expect(await get(`/events/${ids['rain-paris']}?creator=${SITE.id}`)).toEqual({ status: 404, body: { error: expect.any(String), code: 'event_not_found' } });
    expect((await get(`/events/slug/fed-march?creator=${SITE.id}`)).status).toBe(200);
    const unknown = await get('/events?creator=nobody-here');
    expect(unknown).toEqual({ status: 404, body: { error: expect.any(String), code: 'site_not_found' } });
  });

  it('gets an event by id and by slug', async () => {
    const byId = await get(`/events/${ids['fed-march']}`);
    const bySlug = await get('/events/slug/fed-march');
    expect(byId.status).toBe(200);
    expect(bySlug.body).toEqual(byId.body);
    expect(shapeErrors(byId.body, CATALOG_EVENT)).toEqual([]);
    expect(byId.body.markets.map((m: { slug: string }) => m.slug)).toEqual(['fed-cut-25', 'fed-cut-50']);
    expect(await get('/events/999999')).toEqual({ status: 404, body: { error: expect.any(String), code: 'event_not_found' } });
    expect(await get('/events/slug/nothing-here')).toEqual({ status: 404, body: { error: 'event nothing-here not found', code: 'event_not_found' } });
  });

  it('gets a market in catalog form by numeric id on the combined port and by either id on the catalog port', async () => {
    const event = (await get(`/events/${ids['champions-final']}`)).body;
    const { id, conditionId } = event.markets[0];
    const combined = await get(`/markets/${id}`);
    expect(combined.status).toBe(200);
    expect(shapeErrors(combined.body, CATALOG_MARKET)).toEqual([]);
    expect(combined.body.events[0].id).toBe(ids['champions-final']);
    expect(await get(`/markets/${conditionId}`, stack.urls.catalog)).toEqual(combined);
    expect(await get(`/markets/${id}`, stack.urls.catalog)).toEqual(combined);
    expect((await get(`/markets/${id}?creator=${OTHER_SITE.id}`)).status).toBe(200);
    expect(await get('/markets/4242424')).toEqual({ status: 404, body: { error: expect.any(String), code: 'market_not_found' } });
  });

  it('lists tags and searches events, tags and profiles', async () => {
    const tags = await get('/tags?order=slug');
    expect(tags.body.map((t: { slug: string }) => t.slug)).toEqual(['economics', 'fed', 'sports', 'weather']);
    const search = await get('/public-search?q=paris');
    expect(search.body.events.map((e: { slug: string }) => e.slug)).toEqual(['rain-paris']);
    expect(shapeErrors(search.body.events, [EVENT_LIST_ITEM])).toEqual([]);
    expect((await get('/public-search?q=weather')).body.tags).toEqual([{ id: expect.any(String), label: 'Weather', slug: 'weather', event_count: 1 }]);
    expect((await get('/public-search?q=e2e')).body.profiles.map((p: { proxyWallet: string }) => p.proxyWallet)).toEqual([SITE.creatorAddress]);
  });

  it('moves the status flags with PATCH and filters on them', async () => {
    const closed = await stack.admin('PATCH', `/admin/events/${ids['rain-paris']}`, { closed: true });
    expect(closed.status).toBe(200);
    const body = await json(closed);
    expect(body.closed).toBe(true);
    expect(body.markets[0].closed).toBe(true);
    expect((await get('/events?closed=true')).body.map((e: { slug: string }) => e.slug)).toEqual(['rain-paris']);

    const marketId = (await get(`/events/${ids['fed-march']}`)).body.markets[1].id;
    const archived = await stack.admin('PATCH', `/admin/markets/${marketId}`, { archived: true });
    expect(archived.status).toBe(200);
    expect((await json(archived)).archived).toBe(true);
    const notBoolean = await stack.admin('PATCH', `/admin/markets/${marketId}`, { archived: 'yes' });
    expect({ status: notBoolean.status, body: await json(notBoolean) }).toEqual({ status: 400, body: { error: expect.stringContaining('archived'), code: 'invalid_request' } });
    expect((await get(`/markets/${marketId}`)).body.archived).toBe(true);
    const missing = await stack.admin('PATCH', '/admin/events/999999', { closed: true });
    expect({ status: missing.status, body: await json(missing) }).toEqual({ status: 404, body: { error: 'event 999999 not found', code: 'event_not_found' } });
  });

  it('refuses a duplicate slug with 409 and an unauthenticated write with 401', async () => {
    const duplicate = await stack.admin('POST', '/admin/events', {
      title: 'Again',
      slug: 'fed-march',
      description: '',
      endDate: '2027-01-01T00:00:00Z',
      markets: [market('another-market')],
    });
    expect(duplicate.status).toBe(409);
    expect(await json(duplicate)).toEqual({ error: expect.any(String), code: 'conflict' });
    const anonymous = await fetch(`${stack.base}/admin/events`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect({ status: anonymous.status, body: await json(anonymous) }).toEqual({ status: 401, body: { error: expect.any(String), code: 'unauthorized' } });
  });

  it('refuses a NUL or an unpaired surrogate with 400 instead of failing in the database, and keeps surrogate pairs', async () => {
    for (const path of ['/public-search?q=%00', '/events?slug=%00', '/events/slug/a%00']) {
      const response = await fetch(stack.base + path);
      expect(response.status).toBe(400);
      expect(await json(response)).toMatchObject({ code: 'invalid_request' });
    }
    const event = (slug: string, title: string) => ({ title, slug, description: '', endDate: '2027-01-01T00:00:00Z', markets: [market(`${slug}-m`)] });
    for (const [slug, title] of [['nul-title', 'a\0b'], ['lone-surrogate', 'a\ud800b']] as const) {
      const refused = await stack.admin('POST', '/admin/events', event(slug, title));
      expect(refused.status).toBe(400);
      expect(await json(refused)).toMatchObject({ code: 'invalid_request' });
      expect((await fetch(`${stack.base}/events/slug/${slug}`)).status).toBe(404);
    }
    const emoji = await stack.admin('POST', '/admin/events', event('emoji-title', 'Up \ud83d\ude80?'));
    expect(emoji.status).toBe(201);
    expect((await getJson(`${stack.base}/events/slug/emoji-title`)).body.title).toBe('Up 🚀?');
  });

  it('imports upstream events, keeping their ids as mirror ids, once', async () => {
    const fixture = JSON.parse(readFileSync(path.join(REPO_ROOT, 'apps/catalog/test/fixtures/upstream-events.json'), 'utf8'));
    const first = await stack.admin('POST', `/admin/import?sites=${SITE.id}`, fixture);
    expect(first.status).toBe(201);
    const report = await json(first);
    expect(report).toMatchObject({ status: 'done', total: fixture.length, skipped: [] });
    expect(report.created).toHaveLength(fixture.length);
    // The report stays readable by its id.
    expect(await json(await stack.admin('GET', `/admin/imports/${report.id}`))).toEqual(report);

    const upstreamMarket = fixture[0].markets[0];
    const imported = (await get(`/events/slug/${fixture[0].slug}`)).body;
    expect(shapeErrors(imported, CATALOG_EVENT)).toEqual([]);
    expect(imported.markets[0].mirrorConditionId).toBe(upstreamMarket.conditionId.toLowerCase());
    expect(JSON.parse(imported.markets[0].mirrorClobTokenIds)).toEqual(JSON.parse(upstreamMarket.clobTokenIds));
    expect(imported.markets[0].conditionId).not.toBe(imported.markets[0].mirrorConditionId);
    expect((await get(`/events?creator=${SITE.id}&slug=${fixture[0].slug}`)).body).toHaveLength(1);

    const again = await json(await stack.admin('POST', '/admin/import', { events: fixture }));
    expect(again.created).toEqual([]);
    expect(again.skipped).toHaveLength(fixture.length);
  });

  it('creates and serves an event whose answers are larger than one NATS message (1 MiB)', async () => {
    // The largest event the contract allows: 100 markets, every description 20,000 characters.
    const description = 'd'.repeat(20_000);
    const markets = Array.from({ length: 100 }, (_, i) => market(`big-answer-${i}`, { description }));
    const created = await stack.admin('POST', '/admin/events', { title: 'Big answers', slug: 'big-answers', endDate: '2027-06-01T00:00:00Z', description, markets });
    expect(created.status).toBe(201);
    const event = await json(created);
    expect(event.markets).toHaveLength(100);

    const read = await get(`/events/${event.id}`);
    expect(read.status).toBe(200);
    expect(read.body.markets.map((m: { description: string }) => m.description.length)).toEqual(markets.map(() => 20_000));
    // Market data's CLOB markets learn of them from the catalog's stream; one page holds all 100.
    const page = await until(async () => {
      const { body } = await get('/markets?limit=500', stack.urls.clob);
      const big = body.data?.filter((m: { market_slug: string }) => m.market_slug.startsWith('big-answer-'));
      return big?.length === 100 ? big : undefined;
    }, 15_000);
    expect(page.every((m: { description: string }) => m.description === description)).toBe(true);
  });
});
