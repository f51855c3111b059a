import type { CatalogEvent, MarketSnapshot } from '@exchange/contracts';
import { toChecksumAddress } from '@exchange/chain';
import { readStream, until } from '@exchange/testing';
import { aMarket, anEvent, nestedArrays, SITE_A, uniqueSlug } from '../support/builders';
import { startCatalog, type CatalogUnderTest } from '../support/catalog-harness';

describe('operator writes (real PostgreSQL, NATS and JetStream)', () => {
  let catalog: CatalogUnderTest;

  beforeAll(async () => {
    catalog = await startCatalog();
    await catalog.data('catalog.admin.sites.create.v1', SITE_A);
  });
  afterAll(() => catalog.stop());

  const marketEvents = async (conditionId: string) =>
    (await readStream(catalog.prefix, 'CATALOG')).filter(
      (m) => m.subject.startsWith('catalog.evt.market.') && (m.data as MarketSnapshot).conditionId === conditionId,
    );

  it('creates an event with its markets, derived ids, tags, series and sites, and publishes it', async () => {
    const seriesSlug = uniqueSlug('weekly');
    const body = anEvent({
      tags: ['Sports', 'nba'],
      category: 'sports',
      series: { slug: seriesSlug, title: 'Weekly games', recurrence: 'weekly' },
      sites: ['site-a'],
      eventMetadata: { league: 'NBA' },
      markets: [
        aMarket({ tickSize: '0.001', minOrderSize: '10', negRisk: true, feeSchedule: { rate: 0.03, exponent: 1, takerOnly: true, rebateRate: 0.25 } }),
        aMarket({ negRisk: true, outcomes: ['Lakers', 'Celtics'] }),
      ],
    });
    const event = await catalog.data('catalog.admin.events.create.v1', { body });

    expect(event.slug).toBe(body.slug);
    expect(event.tags.map((t) => t.slug)).toEqual(['sports', 'nba']);
    expect(event.series.map((s) => [s.slug, s.recurrence])).toEqual([[seriesSlug, 'weekly']]);
    expect(event.eventMetadata).toEqual({ league: 'NBA' });
    for (const market of event.markets) {
      expect(market.conditionId).toMatch(/^0x[0-9a-f]{64}$/);
      expect(JSON.parse(market.clobTokenIds)).toEqual([expect.stringMatching(/^\d+$/), expect.stringMatching(/^\d+$/)]);
      expect(market.mirrorConditionId).toBe('');
      expect(market.mirrorClobTokenIds).toBe('[]');
    }
    expect(JSON.parse(event.markets[1]!.outcomes)).toEqual(['Lakers', 'Celtics']);

    const [published] = await until(async () => {
      const found = await marketEvents(event.markets[0]!.conditionId);
      return found.length ? found : undefined;
    });
    expect(published!.subject).toBe('catalog.evt.market.created.v1');
    expect(published!.data).toMatchObject({
      slug: body.markets[0]!.slug,
      tokenIds: JSON.parse(event.markets[0]!.clobTokenIds),
      tickSizeUnits: 1_000,
      minOrderSizeUnits: 10_000_000,
      negRisk: true,
      negRiskMarketId: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      feeSchedule: { ratePpm: 30_000, exponent: 1, takerOnly: true, rebateRatePpm: 250_000 },
      acceptingOrders: true,
      category: 'sports',
      sites: ['site-a'],
    });
    // Upstream Gamma's negRisk and negRiskMarketID, in the catalog form too (missing until the
    // twenty-second session, a probe: clients pick the exchange to sign for from them).
    const negRiskMarketId = (published!.data as { negRiskMarketId: string }).negRiskMarketId;
    for (const market of event.markets) expect(market).toMatchObject({ negRisk: true, negRiskMarketID: negRiskMarketId });
    const alone = await catalog.data('catalog.markets.get.v1', { id: event.markets[1]!.conditionId });
    expect(alone).toMatchObject({ negRisk: true, negRiskMarketID: negRiskMarketId });
    const standard = await catalog.data('catalog.admin.events.create.v1', { body: anEvent() });
    expect(standard.markets[0]).toMatchObject({ negRisk: false, negRiskMarketID: '' });
    // Gamma's order settings too: the tick and minimum size as numbers, and whether it takes orders.
    expect(event.markets[0]).toMatchObject({ acceptingOrders: true, orderPriceMinTickSize: 0.001, orderMinSize: 10 });
    expect(standard.markets[0]).toMatchObject({ acceptingOrders: true, orderPriceMinTickSize: 0.01, orderMinSize: 5 });
    const closed = await catalog.data('catalog.admin.markets.patch.v1', { id: standard.markets[0]!.id, body: { closed: true } });
    expect(closed).toMatchObject({ closed: true, acceptingOrders: false });
  });

  it('refuses taken slugs, unknown sites and unknown series, and writes nothing', async () => {
    const first = await catalog.data('catalog.admin.events.create.v1', { body: anEvent() });
    const again = await catalog.request('catalog.admin.events.create.v1', { body: anEvent({ slug: first.slug }) });
    expect(again).toMatchObject({ status: 409, body: { code: 'conflict' } });

    const takenMarket = await catalog.request('catalog.admin.events.create.v1', {
      body: anEvent({ markets: [aMarket({ slug: first.markets[0]!.slug })] }),
    });
    expect(takenMarket).toMatchObject({ status: 409 });

    const newTag = uniqueSlug('never-kept');
    const site = await catalog.request('catalog.admin.events.create.v1', { body: anEvent({ tags: [newTag], sites: ['nowhere'] }) });
    expect(site).toMatchObject({ status: 404, body: { code: 'site_not_found' } });
    const series = await catalog.request('catalog.admin.events.create.v1', { body: anEvent({ tags: [newTag], series: 'no-series' }) });
    expect(series).toMatchObject({ status: 404, body: { code: 'series_not_found' } });
    const tags = await catalog.data('catalog.tags.list.v1', { limit: 500 });
    expect(tags.map((t) => t.slug)).not.toContain(newTag);

    const twice = await catalog.request('catalog.admin.events.create.v1', {
      body: anEvent({ markets: [aMarket({ slug: 'same-slug-twice' }), aMarket({ slug: 'same-slug-twice' })] }),
    });
    expect(twice).toMatchObject({ status: 400 });
  });

  it('refuses eventMetadata nested past 32 levels with 400, where the database failed (a 500) at about 126', async () => {
    const refused = await catalog.request('catalog.admin.events.create.v1', { body: anEvent({ eventMetadata: { a: nestedArrays(125) } }) });
    expect(refused).toEqual({ ok: false, status: 400, body: { error: 'eventMetadata must not be nested more than 32 levels deep', code: 'invalid_request' } });
    const kept = await catalog.data('catalog.admin.events.create.v1', { body: anEvent({ eventMetadata: { a: nestedArrays(31) } }) });
    expect(kept.eventMetadata).toEqual({ a: nestedArrays(31) });
  });

  it.each(['0000-01-01T00:00:00Z', '0001-01-01T00:00:00+01:00', '9999-12-31T23:59:59-14:00', '10000-01-01T00:00:00Z'])(
    'refuses the date %s (outside the years 1 to 9999 in UTC) with 400, where PostgreSQL failed (a 500)',
    async (endDate) => {
      const reply = await catalog.request('catalog.admin.events.create.v1', { body: anEvent({ endDate }) });
      expect(reply).toMatchObject({ ok: false, status: 400, body: { code: 'invalid_request', error: expect.stringContaining('endDate') } });
    },
  );

  it('refuses an event or a market that ends before it starts, outcomes alike but for case, or neg-risk and other markets in one event, with 400, writing nothing; a market takes the dates it leaves out from its event', async () => {
    const slug = uniqueSlug('backwards');
    const event = await catalog.request('catalog.admin.events.create.v1', {
      body: anEvent({ slug, startDate: '2027-07-01T00:00:00Z', endDate: '2027-06-30T12:00:00Z' }),
    });
    expect(event).toEqual({ ok: false, status: 400, body: { code: 'invalid_request', error: 'endDate must not be before startDate' } });
    const market = await catalog.request('catalog.admin.events.create.v1', {
      body: anEvent({ slug, startDate: '2027-01-01T00:00:00Z', markets: [aMarket(), aMarket({ endDate: '2026-12-31T23:59:59Z' })] }),
    });
    expect(market).toMatchObject({ status: 400, body: { error: expect.stringMatching(/^body\.markets\.1\.endDate: a market's endDate must not be before its startDate/) } });
    const marketStart = await catalog.request('catalog.admin.events.create.v1', {
      body: anEvent({ slug, markets: [aMarket({ startDate: '2027-07-01T00:00:00Z' })] }),
    });
    expect(marketStart).toMatchObject({ status: 400, body: { error: expect.stringContaining('markets.0.endDate') } });
    const sameOutcomes = await catalog.request('catalog.admin.events.create.v1', { body: anEvent({ slug, markets: [aMarket({ outcomes: ['Yes', 'yes'] })] }) });
    expect(sameOutcomes).toMatchObject({ status: 400, body: { error: "body.markets.0.outcomes: a market's two outcomes must differ in more than case" } });
    const mixed = await catalog.request('catalog.admin.events.create.v1', { body: anEvent({ slug, markets: [aMarket({ negRisk: true }), aMarket()] }) });
    expect(mixed).toMatchObject({ status: 400, body: { error: "body.markets: an event's markets must all be negRisk or none" } });
    expect(await catalog.request('catalog.events.get.v1', { slug })).toMatchObject({ ok: false, status: 404 });

    const sameInstant = await catalog.data('catalog.admin.events.create.v1', {
      body: anEvent({ slug, startDate: '2027-06-30T12:00:00Z', markets: [aMarket({ endDate: '2027-06-30T14:00:00+02:00' })] }),
    });
    expect(sameInstant.markets[0]!.endDate).toBe('2027-06-30T12:00:00.000Z');
  });

  it('creates every one of several events sent at once that bring the same new tag and series', async () => {
    const tag = uniqueSlug('shared-tag');
    const series = { slug: uniqueSlug('shared-series'), title: 'Shared' };
    const answers = await Promise.all(
      Array.from({ length: 8 }, () => catalog.request('catalog.admin.events.create.v1', { body: anEvent({ tags: [tag], series }) })),
    );
    expect(answers.map((a) => a.ok)).toEqual(Array.from({ length: 8 }, () => true));
    const tags = await catalog.data('catalog.tags.list.v1', { limit: 500 });
    expect(tags.filter((t) => t.slug === tag)).toHaveLength(1);
    const events = await catalog.data('catalog.events.list.v1', { series_slug: series.slug, limit: '100' });
    expect(events).toHaveLength(8);
    // The same slug at once is still one event and conflicts.
    const slug = uniqueSlug('one-slug');
    const clashes = await Promise.all(Array.from({ length: 5 }, () => catalog.request('catalog.admin.events.create.v1', { body: anEvent({ slug }) })));
    expect(clashes.filter((a) => a.ok)).toHaveLength(1);
    expect(clashes.filter((a) => !a.ok && a.status === 409)).toHaveLength(4);
  });

  it('closing an event closes its markets and publishes the change', async () => {
    const event: CatalogEvent = await catalog.data('catalog.admin.events.create.v1', { body: anEvent({ markets: [aMarket(), aMarket()] }) });
    const closed = await catalog.data('catalog.admin.events.patch.v1', { id: event.id, body: { closed: true } });
    expect(closed.closed).toBe(true);
    expect(closed.markets.map((m) => m.closed)).toEqual([true, true]);

    const reopened = await catalog.data('catalog.admin.events.patch.v1', { id: event.id, body: { closed: false } });
    expect(reopened.closed).toBe(false);
    expect(reopened.markets.map((m) => m.closed)).toEqual([true, true]);

    const updates = await until(async () => {
      const found = (await marketEvents(event.markets[0]!.conditionId)).filter((m) => m.subject === 'catalog.evt.market.updated.v1');
      return found.length ? found : undefined;
    });
    expect(updates[0]!.data).toMatchObject({ closed: true, acceptingOrders: false });
    expect(await catalog.request('catalog.admin.events.patch.v1', { id: 987_654, body: { closed: true } })).toMatchObject({ status: 404 });
  });

  it('deactivating an event deactivates its markets, which stop accepting orders; reactivating leaves them', async () => {
    const event: CatalogEvent = await catalog.data('catalog.admin.events.create.v1', { body: anEvent({ markets: [aMarket(), aMarket()] }) });
    // Until the eighteenth session its markets stayed active and traded, the event hidden from active=true lists.
    const inactive = await catalog.data('catalog.admin.events.patch.v1', { id: event.id, body: { active: false } });
    expect(inactive.markets.map((m) => m.active)).toEqual([false, false]);
    const snapshots = await until(async () => {
      const found = (await marketEvents(event.markets[1]!.conditionId)).filter((m) => m.subject === 'catalog.evt.market.updated.v1');
      return found.length ? found : undefined;
    });
    expect(snapshots[0]!.data).toMatchObject({ active: false, acceptingOrders: false });
    const active = await catalog.data('catalog.admin.events.patch.v1', { id: event.id, body: { active: true } });
    expect([active.active, ...active.markets.map((m) => m.active)]).toEqual([true, false, false]);
  });

  it('closes an event with its last market closed by hand, and reopens it with its first market reopened', async () => {
    const event: CatalogEvent = await catalog.data('catalog.admin.events.create.v1', { body: anEvent({ markets: [aMarket(), aMarket()] }) });
    const [first, second] = event.markets;
    const closedOf = async () => (await catalog.data('catalog.events.get.v1', { id: event.id })).closed;
    await catalog.data('catalog.admin.markets.patch.v1', { id: first!.id, body: { closed: true } });
    expect(await closedOf()).toBe(false);
    // The last open market closed by the operator: the event closes (only a resolution closed it before).
    await catalog.data('catalog.admin.markets.patch.v1', { id: second!.id, body: { closed: true } });
    expect(await closedOf()).toBe(true);
    // A market reopened: the event shows open again, so that clients listing closed=false events find it.
    const reopened = await catalog.data('catalog.admin.markets.patch.v1', { id: second!.id, body: { closed: false } });
    expect(reopened.closed).toBe(false);
    expect(await closedOf()).toBe(false);
    const eventUpdates = await until(async () => {
      const found = (await readStream(catalog.prefix, 'CATALOG')).filter((m) => m.subject === 'catalog.evt.event.updated.v1' && String((m.data as { id: number }).id) === String(event.id));
      return found.length === 2 ? found : undefined;
    });
    expect(eventUpdates.map((m) => (m.data as { closed: boolean }).closed)).toEqual([true, false]);
  });

  it('changes one market by id or condition id', async () => {
    const event = await catalog.data('catalog.admin.events.create.v1', { body: anEvent() });
    const market = event.markets[0]!;
    const paused = await catalog.data('catalog.admin.markets.patch.v1', { id: market.conditionId, body: { acceptingOrders: false } });
    expect(paused.active).toBe(true);
    const archived = await catalog.data('catalog.admin.markets.patch.v1', { id: market.id, body: { archived: true } });
    expect(archived.archived).toBe(true);
    const snapshots = await until(async () => {
      const found = await marketEvents(market.conditionId);
      return found.length === 3 ? found : undefined;
    });
    expect(snapshots.map((s) => (s.data as MarketSnapshot).acceptingOrders)).toEqual([true, false, false]);
    expect(snapshots.map((s) => s.seq)).toEqual([...snapshots.map((s) => s.seq)].sort((a, b) => a - b));
    expect(await catalog.request('catalog.admin.markets.patch.v1', { id: '424242', body: { closed: true } })).toMatchObject({ status: 404 });
  });

  it("changes a market's tick size, minimum size and fee schedule, and announces them", async () => {
    const event = await catalog.data('catalog.admin.events.create.v1', { body: anEvent() });
    const market = event.markets[0]!;
    const feeSchedule = { rate: 0.05, exponent: 1, takerOnly: false, rebateRate: 0.2 };
    const changed = await catalog.data('catalog.admin.markets.patch.v1', { id: market.conditionId, body: { tickSize: '0.001', minOrderSize: '10', feeSchedule } });
    expect(changed.conditionId).toBe(market.conditionId);
    const snapshots = await until(async () => {
      const found = await marketEvents(market.conditionId);
      return found.length === 2 ? found : undefined;
    });
    expect(snapshots[1]!.data).toMatchObject({
      tickSizeUnits: 1_000,
      minOrderSizeUnits: 10_000_000,
      feeSchedule: { ratePpm: 50_000, exponent: 1, takerOnly: false, rebateRatePpm: 200_000 },
    });
    expect(await catalog.request('catalog.admin.markets.patch.v1', { id: market.id, body: { tickSize: '0.02' } })).toMatchObject({ status: 400 });
    expect(await catalog.request('catalog.admin.markets.patch.v1', { id: market.id, body: { question: 'Other?' } })).toMatchObject({ status: 400 });
  });

  it('refuses a second site with the same id or creator', async () => {
    expect(await catalog.request('catalog.admin.sites.create.v1', SITE_A)).toMatchObject({ status: 409 });
    // An id shaped like an address: `creator=` would read it as a creator address and never find the site.
    const addressLike = { id: `0x${'ab'.repeat(20)}`, name: 'Address-like', creatorAddress: `0x${'cd'.repeat(20)}` };
    expect(await catalog.request('catalog.admin.sites.create.v1', addressLike)).toMatchObject({
      status: 400,
      body: { code: 'invalid_request', error: expect.stringContaining('must not look like a wallet address') },
    });
    const sites = await catalog.data('catalog.admin.sites.list.v1', {});
    expect(sites).toEqual([{ ...SITE_A, createdAt: expect.any(String) }]);
  });

  it('creates one of the same site sent many times at once, and refuses the others with 409', async () => {
    const site = { id: 'site-race', name: 'Race', creatorAddress: toChecksumAddress(`0x${'7e'.repeat(20)}`) };
    const answers = await Promise.all(Array.from({ length: 12 }, () => catalog.request('catalog.admin.sites.create.v1', site)));
    expect(answers.filter((a) => a.ok)).toHaveLength(1);
    expect(answers.filter((a) => !a.ok && a.status === 409)).toHaveLength(11);
    const sites = (await catalog.data('catalog.admin.sites.list.v1', {})) as { id: string }[];
    expect(sites.filter((s) => s.id === 'site-race')).toHaveLength(1);
  });
});
