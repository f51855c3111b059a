import { ok } from '@exchange/contracts';
import { sleep, until } from '@exchange/testing';
import { aMarketSnapshot, aTrade, startMarketData, u, type MarketDataUnderTest } from '../support/market-data-harness';

describe('a market of 0.01 ticks trading past 0.96 or 0.04 asks the catalog for 0.001 ticks (real PostgreSQL, Redis, NATS)', () => {
  let md: MarketDataUnderTest;
  const asked: unknown[] = [];
  const high = aMarketSnapshot();
  const low = aMarketSnapshot();
  const fine = aMarketSnapshot({ tickSizeUnits: 1_000 });

  beforeAll(async () => {
    md = await startMarketData();
    // The catalog's side of it: the request the operator's PATCH makes.
    md.answer('catalog.admin.markets.patch.v1', (data) => {
      asked.push(data);
      return ok({});
    });
    for (const m of [high, low, fine]) await md.publishMarket(m);
    await md.untilMarketKnown(fine.conditionId);
  });
  afterAll(() => md?.stop());

  it('asks once per market, for trades beyond the bounds only, in YES terms whichever token traded', async () => {
    await md.publishTrade(aTrade({ conditionId: high.conditionId, tokenId: high.tokenIds[0], price: u('0.96') }));
    await md.publishTrade(aTrade({ conditionId: fine.conditionId, tokenId: fine.tokenIds[0], price: u('0.985') }));
    await md.publishTrade(aTrade({ conditionId: high.conditionId, tokenId: high.tokenIds[0], price: u('0.97') }));
    await md.publishTrade(aTrade({ conditionId: high.conditionId, tokenId: high.tokenIds[0], price: u('0.98') }));
    // NO at 0.97 is YES at 0.03.
    await md.publishTrade(aTrade({ conditionId: low.conditionId, tokenId: low.tokenIds[1], price: u('0.97') }));
    await until(async () => (asked.length === 2 ? true : undefined));
    expect(asked).toEqual(
      expect.arrayContaining([
        { id: high.conditionId, body: { tickSize: '0.001' } },
        { id: low.conditionId, body: { tickSize: '0.001' } },
      ]),
    );
    // The market at 0.96 exactly, the fine one and the repeats asked nothing more.
    await sleep(300);
    expect(asked).toHaveLength(2);
  });
});
