import { JSONCodec, type Subscription } from 'nats';
import {
  MATCHING_MARKET_RESOLVED_SUBJECT,
  type BookSnapshotsPage,
  type CatalogEvent,
  type EventSnapshot,
  type MarketResolvedMessage,
  type MarketSnapshot,
} from '@exchange/contracts';
import { prefixed, streamName } from '@exchange/service-kit';
import { readStream, sleep, until } from '@exchange/testing';
import { aMarket, anEvent } from '../support/builders';
import { startCatalog, type CatalogUnderTest } from '../support/catalog-harness';

const codec = JSONCodec();

describe('resolutions reach the catalog (real PostgreSQL, NATS and JetStream)', () => {
  let catalog: CatalogUnderTest;
  let event: CatalogEvent;

  beforeAll(async () => {
    catalog = await startCatalog();
    event = await catalog.data('catalog.admin.events.create.v1', { body: anEvent({ markets: [aMarket(), aMarket()] }) });
  });
  afterAll(() => catalog.stop());

  /** What order-matching publishes for a resolution, on its own subject. */
  const publishResolution = (conditionId: string, batchId = `0x${'0b'.repeat(32)}`) => {
    const message: MarketResolvedMessage = { conditionId, winningOutcome: 0, resolvedAt: Date.now(), batchId };
    return catalog.nc.jetstream().publish(prefixed(catalog.prefix, MATCHING_MARKET_RESOLVED_SUBJECT), codec.encode(message));
  };
  const market = (id: string) => catalog.data('catalog.markets.get.v1', { id });
  const updates = async (subject: string, match: (data: unknown) => boolean) =>
    (await readStream(catalog.prefix, 'CATALOG')).filter((m) => m.subject === subject && match(m.data));
  const marketUpdates = (conditionId: string) =>
    updates('catalog.evt.market.updated.v1', (d) => (d as MarketSnapshot).conditionId === conditionId);
  const eventUpdates = () => updates('catalog.evt.event.updated.v1', (d) => (d as EventSnapshot).id === Number(event.id));
  /** Every message the consumer received is acknowledged, none waits. */
  const allAcknowledged = async () => {
    const jsm = await catalog.nc.jetstreamManager();
    const info = await jsm.consumers.info(streamName(catalog.prefix, 'MATCHING'), 'catalog-resolutions');
    return info.num_pending === 0 && info.num_ack_pending === 0 ? true : undefined;
  };

  it('closes the market and stops its orders, announcing it as a PATCH does; the event stays open while a market is', async () => {
    const [first, second] = event.markets;
    await publishResolution(first!.conditionId);

    const closed = await until(async () => {
      const found = await market(first!.id);
      return found.closed ? found : undefined;
    });
    // As upstream shows a resolved market: closed, still active.
    expect(closed).toMatchObject({ closed: true, active: true, archived: false });
    const [update] = await until(async () => {
      const found = await marketUpdates(first!.conditionId);
      return found.length ? found : undefined;
    });
    expect(update!.data).toMatchObject({ conditionId: first!.conditionId, closed: true, active: true, acceptingOrders: false });

    const stillOpen = await catalog.data('catalog.events.get.v1', { id: event.id });
    expect(stillOpen.closed).toBe(false);
    expect(stillOpen.markets.map((m) => m.closed)).toEqual([true, false]);
    expect((await market(second!.id)).closed).toBe(false);

    expect(await eventUpdates()).toEqual([]);
  });

  it('changes nothing more when the same resolution comes again', async () => {
    const first = event.markets[0]!;
    const before = await market(first.id);
    await publishResolution(first.conditionId, `0x${'0c'.repeat(32)}`);
    await until(allAcknowledged);
    await sleep(300);
    expect(await market(first.id)).toEqual(before);
    expect(await marketUpdates(first.conditionId)).toHaveLength(1);
  });

  it('closes the event with its last open market, and lists it among the closed events', async () => {
    const second = event.markets[1]!;
    await publishResolution(second.conditionId);
    const closed = await until(async () => {
      const found = await catalog.data('catalog.events.get.v1', { slug: event.slug });
      return found.closed ? found : undefined;
    });
    expect(closed.markets.map((m) => m.closed)).toEqual([true, true]);
    expect((await catalog.data('catalog.events.list.v1', { slug: event.slug, closed: 'true' })).map((e) => e.id)).toEqual([event.id]);
    expect(await catalog.data('catalog.events.list.v1', { slug: event.slug, closed: 'false' })).toEqual([]);

    const [eventUpdate] = await until(async () => {
      const found = await eventUpdates();
      return found.length ? found : undefined;
    });
    expect(eventUpdate!.data).toMatchObject({ closed: true, active: true });
    // Each market announced once: the event's closing had no market left to change.
    expect(await marketUpdates(second.conditionId)).toHaveLength(1);
    expect(await marketUpdates(event.markets[0]!.conditionId)).toHaveLength(1);

    await publishResolution(second.conditionId, `0x${'0d'.repeat(32)}`);
    await until(allAcknowledged);
    await sleep(300);
    expect(await eventUpdates()).toHaveLength(1);
  });

  it('acknowledges a resolution of a market it does not have, and a malformed message, changing nothing', async () => {
    const streamBefore = (await readStream(catalog.prefix, 'CATALOG')).length;
    await publishResolution(`0x${'ee'.repeat(32)}`);
    await catalog.nc.jetstream().publish(prefixed(catalog.prefix, MATCHING_MARKET_RESOLVED_SUBJECT), codec.encode({ conditionId: 'nope' }));
    await sleep(300);
    await until(allAcknowledged);
    expect((await readStream(catalog.prefix, 'CATALOG')).length).toBe(streamBefore);
  });

  it('closes a market on a resolution of a version before 2026-11-25, which had no batchId (an upgraded stream holds those)', async () => {
    const older = await catalog.data('catalog.admin.events.create.v1', { body: anEvent() });
    const { conditionId, id } = older.markets[0]!;
    await catalog.nc.jetstream().publish(prefixed(catalog.prefix, MATCHING_MARKET_RESOLVED_SUBJECT), codec.encode({ conditionId, winningOutcome: 1, resolvedAt: Date.now() }));
    expect(await until(async () => ((await market(id)).closed ? true : undefined))).toBe(true);
  });

  it('at start, closes the markets order-matching resolved while the catalog heard nothing of it', async () => {
    const missed = await catalog.data('catalog.admin.events.create.v1', { body: anEvent() });
    const conditionId = missed.markets[0]!.conditionId;
    // order-matching's answer to matching.books.snapshots.v1, in the Nest wire format, over real NATS.
    const page: BookSnapshotsPage = {
      markets: [
        { conditionId, bookSeq: 0, timestamp: Date.now(), levels: [], winningOutcome: 1, lastTrade: null },
        { conditionId: `0x${'ee'.repeat(32)}`, bookSeq: 0, timestamp: Date.now(), levels: [], winningOutcome: 0, lastTrade: null },
      ],
      next: null,
    };
    const engine: Subscription = catalog.nc.subscribe(prefixed(catalog.prefix, 'matching.books.snapshots.v1'), {
      callback: (_error, request) => {
        const { id } = codec.decode(request.data) as { id: string };
        request.respond(codec.encode({ id, response: { ok: true, data: page }, isDisposed: true }));
      },
    });
    try {
      await catalog.restart();
      const closed = await until(async () => {
        const found = await catalog.data('catalog.events.get.v1', { id: missed.id });
        return found.closed ? found : undefined;
      });
      expect(closed.markets[0]!.closed).toBe(true);
      expect((await until(async () => ((await marketUpdates(conditionId)).length ? marketUpdates(conditionId) : undefined)))[0]!.data).toMatchObject({
        closed: true,
        acceptingOrders: false,
      });
    } finally {
      engine.unsubscribe();
    }
  });

  it('refuses to reopen a resolved market or change its trading settings, while its other flags still move', async () => {
    const created = await catalog.data('catalog.admin.events.create.v1', { body: anEvent({ markets: [aMarket(), aMarket()] }) });
    const [resolved, open] = created.markets;
    await publishResolution(resolved!.conditionId);
    await until(async () => ((await market(resolved!.id)).closed ? true : undefined));
    for (const body of [{ closed: false }, { acceptingOrders: true }, { closed: false, archived: true }]) {
      expect(await catalog.request('catalog.admin.markets.patch.v1', { id: resolved!.id, body })).toMatchObject({
        ok: false,
        status: 409,
        body: { code: 'market_resolved', error: `market ${resolved!.id} is resolved: it cannot be reopened` },
      });
    }
    expect(await catalog.request('catalog.admin.markets.patch.v1', { id: resolved!.id, body: { tickSize: '0.001' } })).toMatchObject({
      status: 409,
      body: { code: 'market_resolved', error: `market ${resolved!.id} is resolved: its trading settings cannot change` },
    });
    expect(await market(resolved!.id)).toMatchObject({ closed: true, archived: false });
    expect(await catalog.data('catalog.admin.markets.patch.v1', { id: resolved!.id, body: { archived: true } })).toMatchObject({ archived: true, closed: true });
    // A market that was not resolved opens and closes as before.
    expect(await catalog.data('catalog.admin.markets.patch.v1', { id: open!.id, body: { closed: true } })).toMatchObject({ closed: true });
    expect(await catalog.data('catalog.admin.markets.patch.v1', { id: open!.id, body: { closed: false } })).toMatchObject({ closed: false });
  });
});
