import { MAX_MAKERS_PER_TRADE_EVENT, MAX_MESSAGE_BYTES, type TradeEvent } from '@exchange/contracts';
import { split } from '../../../src/engine/money';
import { placeOrder } from '../../../src/engine/place-order';
import { eventMessages } from '../../../src/journal/event-messages';
import { EngineState } from '../../../src/engine/engine-state';
import { aMarket, anOrder, CONDITION, expectConserved, FEE_ACCOUNT, fund, traderOf, NOW } from '../../support/engine-fixture';

describe('the trade event of a taker that fills against many makers', () => {
  it('is sliced into events of at most MAX_MAKERS_PER_TRADE_EVENT makers with the same id and totals', () => {
    const makers = MAX_MAKERS_PER_TRADE_EVENT * 2 + 200;
    // More makers than one order may take by default: the slicing holds whatever the operator allows.
    const state = new EngineState({ feeAccount: FEE_ACCOUNT, newId: () => 'trade-1', maxMakersPerOrder: makers });
    state.addMarket(aMarket());
    const seller = traderOf(1);
    const buyer = traderOf(2);
    fund(state, seller, String(5 * makers));
    expect(split(state, seller.address, CONDITION, 5_000_000 * makers, NOW).ok).toBe(true);
    for (let i = 0; i < makers; i++) {
      expect(placeOrder(state, seller, anOrder(seller, { side: 'SELL', price: '0.50', size: '5' }), 1_000 + i).success).toBe(true);
    }
    state.takeEffects();
    fund(state, buyer, String(5 * makers));
    const taken = placeOrder(state, buyer, anOrder(buyer, { side: 'BUY', price: '0.50', size: String(5 * makers) }), 9_000);
    expect(taken).toMatchObject({ success: true, status: 'matched', tradeIDs: ['trade-1'] });
    expectConserved(state);

    const events = state.takeEffects().events;
    const trades = events.flatMap((e) => (e.type === 'trade' ? [e.data] : []));
    expect(trades.map((t) => t.makers.length)).toEqual([MAX_MAKERS_PER_TRADE_EVENT, MAX_MAKERS_PER_TRADE_EVENT, 200]);
    const totals = ({ makers: _makers, ...rest }: TradeEvent) => rest;
    expect(trades.every((t) => JSON.stringify(totals(t)) === JSON.stringify(totals(trades[0]!)))).toBe(true);
    expect(trades[0]).toMatchObject({ id: 'trade-1', size: String(5_000_000 * makers), price: '500000' });
    expect(new Set(trades.flatMap((t) => t.makers.map((m) => m.orderId))).size).toBe(makers);
    // Every message of the batch stays under the limit.
    for (const message of eventMessages('0xb', events)) {
      expect(Buffer.byteLength(message)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
    }
  });
});
