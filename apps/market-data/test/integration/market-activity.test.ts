import { MARKET_ACTIVITY_PAGE } from '@exchange/contracts';
import { until } from '@exchange/testing';
import { aMarketSnapshot, aTrade, startMarketData, u, type MarketDataUnderTest } from '../support/market-data-harness';

describe("market-data's measure of each market's volume and liquidity (real PostgreSQL, Redis, NATS and JetStream)", () => {
  let md: MarketDataUnderTest;
  const market = aMarketSnapshot();
  const quiet = aMarketSnapshot();
  const [yes, no] = market.tokenIds;
  const cid = market.conditionId;

  beforeAll(async () => {
    md = await startMarketData();
    for (const m of [market, quiet]) await md.publishMarket(m);
    await md.untilMarketKnown(quiet.conditionId);
  });
  afterAll(() => md?.stop());

  const activity = async () => {
    const page = await md.data('marketdata.activity.v1', {});
    return Object.fromEntries(page.markets.map((m) => [m.conditionId, { volume: m.volume, liquidity: m.liquidity }]));
  };

  it('adds each trade once, at what its taker paid or received, and values the resting book at its prices', async () => {
    expect(await activity()).toEqual({ [cid]: { volume: '0', liquidity: '0' }, [quiet.conditionId]: { volume: '0', liquidity: '0' } });
    // A YES buy of 10 shares for 6.03 (two levels), a NO sale of 4 shares for 1.6, and one trade of
    // many makers sent as two slices with the same id and totals.
    const sliced = aTrade({ conditionId: cid, tokenId: yes!, size: u('20'), price: u('0.5'), collateral: u('10') });
    await md.publishBatch([
      { type: 'trade', data: aTrade({ conditionId: cid, tokenId: yes!, size: u('10'), price: u('0.603'), collateral: u('6.03') }) },
      { type: 'trade', data: aTrade({ conditionId: cid, tokenId: no!, side: 'SELL', size: u('4'), price: u('0.4'), collateral: u('1.6') }) },
      { type: 'trade', data: sliced },
    ]);
    await md.publishTrade(sliced);
    // A book of 10 YES bid at 0.40 and 5 YES asked at 0.65: 4 + 3.25.
    await md.publishBook({
      conditionId: cid,
      bookSeq: 1,
      changes: [
        { side: 'BID', price: u('0.4'), size: u('10') },
        { side: 'ASK', price: u('0.65'), size: u('5') },
      ],
      timestamp: Date.now(),
    });
    const expected = { [cid]: { volume: u('17.63'), liquidity: u('7.25') }, [quiet.conditionId]: { volume: '0', liquidity: '0' } };
    await until(async () => ((await activity())[cid]!.liquidity === expected[cid]!.liquidity ? true : undefined));
    await until(async () => ((await activity())[cid]!.volume === expected[cid]!.volume ? true : undefined));
    expect(await activity()).toEqual(expected);

    // Redelivered after a restart (the snapshot is older than the stream's tail), nothing counts twice.
    await md.restart();
    expect(await activity()).toEqual(expected);
    // An event of an older version, without the taker's collateral: size x price.
    await md.publishTrade(aTrade({ conditionId: cid, tokenId: yes!, size: u('3'), price: u('0.5') }));
    await until(async () => ((await activity())[cid]!.volume === u('19.13') ? true : undefined));
  });

  it('pages the markets in the catalog’s id order, a full page at a time', async () => {
    const more = Array.from({ length: MARKET_ACTIVITY_PAGE - 1 }, () => aMarketSnapshot());
    for (const m of more) await md.publishMarket(m);
    await md.untilMarketKnown(more.at(-1)!.conditionId, 30_000);
    const ids = [market, quiet, ...more].map((m) => m.id).sort((a, b) => a - b);
    const first = await md.data('marketdata.activity.v1', {});
    expect(first.markets.map((m) => m.id)).toEqual(ids.slice(0, MARKET_ACTIVITY_PAGE));
    expect(first.next).toBe(ids[MARKET_ACTIVITY_PAGE - 1]);
    const second = await md.data('marketdata.activity.v1', { after: first.next });
    expect(second).toEqual({ markets: [expect.objectContaining({ id: ids[MARKET_ACTIVITY_PAGE] })], next: null });
    expect((await md.request('marketdata.activity.v1', { after: -1 })).ok).toBe(false);
  });
});
