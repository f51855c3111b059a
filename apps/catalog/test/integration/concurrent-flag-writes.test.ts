import { JSONCodec } from 'nats';
import { MATCHING_MARKET_RESOLVED_SUBJECT, type CatalogEvent, type MarketResolvedMessage, type MarketSnapshot } from '@exchange/contracts';
import { prefixed } from '@exchange/service-kit';
import { readStream, until } from '@exchange/testing';
import { aMarket, anEvent } from '../support/builders';
import { startCatalog, type CatalogUnderTest } from '../support/catalog-harness';

const codec = JSONCodec();

/**
 * Writers of one event's flags at the same time (found by a fuzzing round): consumers keep the market
 * snapshot with the latest `updatedAt`, so snapshots must carry times in the order they commit, and a
 * PATCH must not reopen a market that a resolution is closing.
 */
describe('concurrent writes of flags (real PostgreSQL, NATS and JetStream)', () => {
  let catalog: CatalogUnderTest;

  beforeAll(async () => {
    catalog = await startCatalog();
  });
  afterAll(() => catalog.stop());

  const snapshots = async (conditionId: string) =>
    (await readStream(catalog.prefix, 'CATALOG'))
      .filter((m) => m.subject === 'catalog.evt.market.updated.v1' && (m.data as MarketSnapshot).conditionId === conditionId)
      .map((m) => m.data as MarketSnapshot);
  const created = async (markets = 2): Promise<CatalogEvent> =>
    catalog.data('catalog.admin.events.create.v1', { body: anEvent({ markets: Array.from({ length: markets }, () => aMarket()) }) });

  it('announces PATCHes of one market sent at once with times in the order they commit, the last one the state kept', async () => {
    for (let round = 0; round < 5; round++) {
      const event = await created();
      const [market, sibling] = event.markets as [CatalogEvent['markets'][number], CatalogEvent['markets'][number]];
      const bodies = [{ closed: true }, { closed: false }, { closed: true }, { closed: false }, { acceptingOrders: false }, { closed: true }];
      await Promise.all([
        ...bodies.map((body) => catalog.request('catalog.admin.markets.patch.v1', { id: market.id, body })),
        catalog.request('catalog.admin.markets.patch.v1', { id: sibling.id, body: { archived: true } }),
        catalog.request('catalog.admin.events.patch.v1', { id: event.id, body: { closed: round % 2 === 0 } }),
      ]);
      const kept = await catalog.data('catalog.markets.get.v1', { id: market.id });
      const announced = await until(async () => {
        const found = await snapshots(market.conditionId);
        return found.length > 0 && found.at(-1)!.updatedAt === kept.updatedAt ? found : undefined;
      });
      const times = announced.map((s) => Date.parse(s.updatedAt));
      expect(times).toEqual([...times].sort((a, b) => a - b));
      expect(new Set(times).size).toBe(times.length);
      expect(announced.at(-1)).toMatchObject({ closed: kept.closed, active: kept.active, archived: kept.archived });
    }
  });

  it('does not reopen a market that a resolution closes while PATCHes try to', async () => {
    const event = await created(1);
    const market = event.markets[0]!;
    const message: MarketResolvedMessage = { conditionId: market.conditionId, winningOutcome: 0, resolvedAt: Date.now(), batchId: 'race' };
    const reopen = () => catalog.request('catalog.admin.markets.patch.v1', { id: market.id, body: { closed: false } });
    await Promise.all([
      ...Array.from({ length: 8 }, reopen),
      catalog.nc.jetstream().publish(prefixed(catalog.prefix, MATCHING_MARKET_RESOLVED_SUBJECT), codec.encode(message)),
      ...Array.from({ length: 8 }, reopen),
    ]);
    const closed = await until(async () => {
      const found = await catalog.data('catalog.markets.get.v1', { id: market.id });
      return found.closed ? found : undefined;
    });
    expect(await reopen()).toMatchObject({ ok: false, status: 409, body: { code: 'market_resolved' } });
    expect((await catalog.data('catalog.markets.get.v1', { id: market.id })).closed).toBe(true);
    // The outbox publishes after the commit: the closing's announcement may trail the read above.
    const announced = await until(async () => {
      const found = await snapshots(market.conditionId);
      return found.at(-1)?.updatedAt === closed.updatedAt ? found : undefined;
    }, 10_000, "the resolution's announcement as the last one");
    expect(announced.at(-1)).toMatchObject({ closed: true, acceptingOrders: false, updatedAt: closed.updatedAt });
  });
});
