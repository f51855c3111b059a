import type { BookSnapshotsPage, MarketBookSnapshot } from '@exchange/contracts';
import { Side } from '../core';
import type { EngineState } from './engine-state';

const PAGE_LIMITS = { markets: 200, levels: 10_000 };

/**
 * The markets after `after` in condition id order, a page of them, with every level of their books and
 * their book sequences (the last trade is the caller's to add). A page ends after `limits.markets`
 * markets or once it holds `limits.levels` levels, so that it stays far below NATS's 1 MB per message.
 */
export function bookSnapshotsAfter(state: EngineState, after: string, now: number, limits = PAGE_LIMITS): BookSnapshotsPage {
  const ids = [...state.markets.keys()].filter((id) => id > after).sort();
  const markets: MarketBookSnapshot[] = [];
  let levels = 0;
  for (const id of ids) {
    if (markets.length === limits.markets || levels >= limits.levels) break;
    const market = state.markets.get(id)!;
    const snapshot: MarketBookSnapshot = {
      conditionId: id,
      bookSeq: state.bookSeq.get(id) ?? 0,
      timestamp: now,
      levels: [
        ...market.book.depth(Side.BID, Infinity).map((l) => ({ side: 'BID' as const, price: String(l.price), size: String(l.size) })),
        ...market.book.depth(Side.ASK, Infinity).map((l) => ({ side: 'ASK' as const, price: String(l.price), size: String(l.size) })),
      ],
      winningOutcome: market.winningOutcome,
      lastTrade: null,
    };
    markets.push(snapshot);
    levels += snapshot.levels.length;
  }
  const more = markets.length > 0 && markets.length < ids.length;
  return { markets, next: more ? markets[markets.length - 1]!.conditionId : null };
}
