import { connect, type NatsConnection } from 'nats';
import type { Caller } from '@exchange/contracts';
import { RpcClient } from '@exchange/service-kit';
import { rpcCalls, TEST_NATS_URL } from '@exchange/testing';
import { anOrder, traderOf } from '../support/engine-fixture';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

const CONDITION = `0x${'5e'.repeat(32)}`;
const YES = '701';
const NO = '702';
const alice = traderOf(1);
const bob = traderOf(2);
const NOT_FOUND = "order can't be found - already canceled or matched";

describe('cancels of many orders, one step at a time, on real PostgreSQL and NATS', () => {
  let om: MatchingUnderTest;
  let nc: NatsConnection;
  // Requests sent side by side: the harness's own audit after each would catch the engine between two steps.
  let concurrent: ReturnType<typeof rpcCalls>;

  beforeAll(async () => {
    om = await startMatching({ CANCEL_STEP_ORDERS: '1' });
    await om.publishMarket(aMarketSnapshot(CONDITION, [YES, NO]));
    for (const trader of [alice, bob]) await om.data('matching.admin.deposit.v1', { address: trader.address, amount: '1000' });
    nc = await connect({ servers: TEST_NATS_URL });
    concurrent = rpcCalls(new RpcClient(nc, om.prefix, 10_000));
  });
  afterAll(async () => {
    await nc.close();
    await om.stop();
  });

  const rest = async (trader: Caller, price: string, count: number): Promise<string[]> => {
    const results = await om.data('matching.orders.place.v1', {
      placements: [{ caller: trader, orders: Array.from({ length: count }, () => anOrder(trader, { token: YES, side: 'BUY', price, size: '5' })) }],
    });
    expect(results[0]!.map((r) => r.status)).toEqual(Array(count).fill('live'));
    return results[0]!.map((r) => r.orderID);
  };

  it("lets another trader's order run between the steps of a cancel-all, and answers an order it matched meanwhile as not canceled", async () => {
    const older = [...(await rest(alice, '0.20', 15)), ...(await rest(alice, '0.20', 4))];
    const [newest] = await rest(alice, '0.30', 1);
    // Sent right after the cancel-all: it arrives while the first of twenty steps commits, and takes
    // alice's newest bid (bob's BUY of NO at 0.70 and her BUY of YES at 0.30 mint a pair), which a single
    // command would have cancelled first.
    const [canceled, taken] = await Promise.all([
      concurrent.data('matching.orders.cancel-all.v1', { caller: alice }),
      concurrent.data('matching.orders.place.v1', { placements: [{ caller: bob, orders: [anOrder(bob, { token: NO, side: 'BUY', price: '0.70', size: '5' })] }] }),
    ]);
    expect(taken[0]![0]).toMatchObject({ success: true, status: 'matched', takingAmount: '5' });
    expect(canceled).toEqual({ canceled: older, not_canceled: { [newest!]: NOT_FOUND } });
    expect([...om.engine().state.orders.keys()]).toEqual([]);
    await om.expectConserved();
  });

  it('cancels more ids than a step, each once, and answers the others as not found', async () => {
    const mine = await rest(alice, '0.20', 4);
    const [bobs] = await rest(bob, '0.20', 1);
    const unknown = `0x${'00'.repeat(32)}`;
    const result = await om.data('matching.orders.cancel.v1', { caller: alice, orderIds: [mine[2]!, bobs!, mine[0]!, mine[2]!, unknown, mine[3]!] });
    expect(result).toEqual({ canceled: [mine[2], mine[0], mine[3]], not_canceled: { [bobs!]: NOT_FOUND, [unknown]: NOT_FOUND } });
    expect([...om.engine().state.orders.keys()].sort()).toEqual([mine[1], bobs].sort());
    expect(await om.data('matching.orders.cancel-market.v1', { caller: alice, market: CONDITION })).toEqual({ canceled: [mine[1]], not_canceled: {} });
  });
});
