import { Client } from 'pg';
import { JSONCodec, type Subscription } from 'nats';
import { ok, type CatalogEvent, type MarketActivity, type MarketActivityPage } from '@exchange/contracts';
import { prefixed } from '@exchange/service-kit';
import { sleep, until } from '@exchange/testing';
import { aMarket, anEvent } from '../support/builders';
import { startCatalog, type CatalogUnderTest } from '../support/catalog-harness';

const codec = JSONCodec();

describe("markets' and events' volume and liquidity from market-data (real PostgreSQL and NATS)", () => {
  let catalog: CatalogUnderTest;
  let small: CatalogEvent;
  let large: CatalogEvent;
  let marketData: Subscription | undefined;
  /** What market-data measures now, by the catalog's market id. */
  const measures = new Map<number, Pick<MarketActivity, 'volume' | 'liquidity'>>();

  beforeAll(async () => {
    catalog = await startCatalog({ env: { ACTIVITY_SYNC_SECONDS: '1' } });
    small = await catalog.data('catalog.admin.events.create.v1', { body: anEvent({ markets: [aMarket(), aMarket()] }) });
    large = await catalog.data('catalog.admin.events.create.v1', { body: anEvent({ markets: [aMarket()] }) });
  });
  afterAll(async () => {
    marketData?.unsubscribe();
    await catalog.stop();
  });

  /** Answers as market-data does (Nest's NATS wire format), two markets a page. */
  const answerAsMarketData = () => {
    const markets = [...small.markets, ...large.markets].map((m) => ({ id: Number(m.id), conditionId: m.conditionId }));
    marketData = catalog.nc.subscribe(prefixed(catalog.prefix, 'marketdata.activity.v1'), {
      callback: (_error, msg) => {
        const { id, data } = codec.decode(msg.data) as { id: string; data: { after?: number } };
        const rest = markets.filter((m) => m.id > (data.after ?? 0));
        const page = rest.slice(0, 2).map((m) => ({ ...m, volume: '0', liquidity: '0', ...measures.get(m.id) }));
        const answer: MarketActivityPage = { markets: page, next: rest.length > 2 ? page[1]!.id : null };
        msg.respond(codec.encode({ id, isDisposed: true, response: ok(answer) }));
      },
    });
  };
  const stored = async () => {
    const db = new Client({ connectionString: catalog.databaseUrl });
    await db.connect();
    try {
      const events = await db.query<{ id: number; volume: string; liquidity: string }>('SELECT id, volume, liquidity FROM events ORDER BY id');
      return events.rows.map((e) => `${e.id}:${e.volume}:${e.liquidity}`);
    } finally {
      await db.end();
    }
  };
  const order = async (by: 'volume' | 'liquidity', ascending: boolean) =>
    (await catalog.data('catalog.events.list.v1', { order: by, ascending: String(ascending) })).map((e) => e.id);
  const set = (market: { id: string }, volume: string, liquidity: string) => measures.set(Number(market.id), { volume, liquidity });

  it("stores each market's measures and each event's sums, and sorts events by them", async () => {
    // Market-data is not up yet: the catalog serves what it has and tries again.
    await sleep(1_500);
    expect(await stored()).toEqual([`${small.id}:0:0`, `${large.id}:0:0`]);

    set(small.markets[0]!, '5000000', '1000000');
    set(small.markets[1]!, '7000000', '2500000');
    set(large.markets[0]!, '20000000', '0');
    answerAsMarketData();
    const expected = [`${small.id}:12000000:3500000`, `${large.id}:20000000:0`];
    await until(async () => ((await stored()).join() === expected.join() ? true : undefined), 10_000);
    expect(await order('volume', false)).toEqual([large.id, small.id]);
    expect(await order('volume', true)).toEqual([small.id, large.id]);
    expect(await order('liquidity', false)).toEqual([small.id, large.id]);

    // Trading goes on: the smaller event overtakes the larger one; a book emptied counts 0.
    set(small.markets[1]!, '30000000', '0');
    const next = [`${small.id}:35000000:1000000`, `${large.id}:20000000:0`];
    await until(async () => ((await stored()).join() === next.join() ? true : undefined), 10_000);
    expect(await order('volume', false)).toEqual([small.id, large.id]);
  });

  it('keeps the last measures while market-data does not answer, and does not touch updatedAt', async () => {
    const before = await catalog.data('catalog.events.get.v1', { id: small.id });
    marketData?.unsubscribe();
    set(small.markets[0]!, '1', '1');
    await sleep(2_500);
    expect(await stored()).toEqual([`${small.id}:35000000:1000000`, `${large.id}:20000000:0`]);
    answerAsMarketData();
    await until(async () => ((await stored())[0] === `${small.id}:30000001:1` ? true : undefined), 10_000);
    expect((await catalog.data('catalog.events.get.v1', { id: small.id })).updatedAt).toBe(before.updatedAt);
  });
});
