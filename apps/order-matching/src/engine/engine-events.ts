import { MAX_MAKERS_PER_TRADE_EVENT, type BookEvent, type OrderEvent, type TradeEvent } from '@exchange/contracts';
import { Side } from '../core';
import { averagePrice } from './book-terms';
import type { EngineState } from './engine-state';
import type { MarketState, OrderState, TradeRecord } from './model';

/** The change events of a command, for the outbox of its batch (stream MATCHING). */

export function recordOrderEvent(state: EngineState, order: OrderState, type: OrderEvent['type'], now: number): void {
  const payload: OrderEvent = {
    type,
    id: order.id,
    owner: order.owner,
    maker: order.maker,
    conditionId: order.conditionId,
    tokenId: order.tokenId,
    side: order.side,
    price: String(order.price),
    originalSize: String(order.size),
    sizeMatched: String(order.matched),
    status: order.status,
    orderType: order.orderType,
    expiration: order.expiration,
    createdAt: order.createdAt,
    timestamp: now,
  };
  state.effects.events.push({ type: 'order', data: payload });
}

/**
 * `batchId` is filled in by the journal when the batch gets its id. A trade with many makers becomes
 * several events with the same totals, one per slice of MAX_MAKERS_PER_TRADE_EVENT makers.
 */
export function recordTradeEvent(state: EngineState, trade: TradeRecord): void {
  const makers = trade.makers.map((m) => ({
    orderId: m.orderId,
    maker: m.maker,
    tokenId: m.tokenId,
    side: m.side,
    size: String(m.shares),
    price: String(m.price),
    fee: String(m.fee),
    rebate: String(m.rebate),
  }));
  const totals: Omit<TradeEvent, 'makers'> = {
    id: trade.id,
    batchId: '',
    conditionId: trade.conditionId,
    takerOrderId: trade.takerOrderId,
    taker: trade.taker,
    tokenId: trade.tokenId,
    side: trade.side,
    size: String(trade.shares),
    price: String(averagePrice(trade.collateral, trade.shares)),
    collateral: String(trade.collateral),
    fee: String(trade.fee),
    feeRateBps: trade.feeRateBps,
    matchTime: trade.matchTime,
  };
  for (let from = 0; from < makers.length; from += MAX_MAKERS_PER_TRADE_EVENT) {
    const payload: TradeEvent = { ...totals, makers: makers.slice(from, from + MAX_MAKERS_PER_TRADE_EVENT) };
    state.effects.events.push({ type: 'trade', data: payload });
  }
}

/** Aggregate sizes of the levels a command touched, after the command. */
export function recordBookChanges(state: EngineState, market: MarketState, levels: [Side, number][], now: number): void {
  if (levels.length === 0) return;
  const seen = new Set<string>();
  const changes: BookEvent['changes'] = [];
  for (const [side, price] of levels) {
    const key = `${side}:${price}`;
    if (seen.has(key)) continue;
    seen.add(key);
    changes.push({ side: side === Side.BID ? 'BID' : 'ASK', price: String(price), size: String(market.book.levelSize(side, price)) });
  }
  const bookSeq = (state.bookSeq.get(market.conditionId) ?? 0) + 1;
  state.bookSeq.set(market.conditionId, bookSeq);
  state.bookTime.set(market.conditionId, now);
  const payload: BookEvent = { conditionId: market.conditionId, bookSeq, changes, timestamp: now };
  state.effects.events.push({ type: 'book', data: payload });
}
