import type { BookSnapshotsPage, MarketBookSnapshot } from '@exchange/contracts';
import { Side } from '../core';
import type { EngineState } from './engine-state';

const PAGE_LIMITS = { markets: 200, levels: 10_000 };

/**
 * The markets after `after` in condition id order, a page of them, with every level of their books,
 * their book sequences and the times of their last book events (0 before any; the last trade is the
 * caller's to add). A page ends after `limits.markets` markets or once it holds `limits.levels` levels,
 * so that it stays far below NATS's 1 MB per message.
 */
export function bookSnapshotsAfter(state: EngineState, after: string, limits = PAGE_LIMITS): BookSnapshotsPage {
  const ids = sortedMarketIds(state);
  const markets: MarketBookSnapshot[] = [];
  let levels = 0;
  let next = firstAfter(ids, after);
  for (; next < ids.length; next++) {
    if (markets.length === limits.markets || levels >= limits.levels) break;
    const id = ids[next]!;
    const market = state.markets.get(id)!;
    const snapshot: MarketBookSnapshot = {
      conditionId: id,
      bookSeq: state.bookSeq.get(id) ?? 0,
      // The last change's, not the request's: the same book keeps its time and hash in market-data.
      timestamp: state.bookTime.get(id) ?? 0,
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
  return { markets, next: next < ids.length ? markets[markets.length - 1]!.conditionId : null };
}

/**
 * The condition ids in order, sorted again only when a market was added (markets are never removed):
 * a rebuild asks for every page, and sorting every id for each one would hold the engine up.
 */
const sortedIds = new WeakMap<EngineState, string[]>();
function sortedMarketIds(state: EngineState): string[] {
  let ids = sortedIds.get(state);
  if (ids?.length !== state.markets.size) sortedIds.set(state, (ids = [...state.markets.keys()].sort()));
  return ids;
}

/** The index of the first id greater than `after` (binary search). */
function firstAfter(ids: string[], after: string): number {
  let low = 0;
  let high = ids.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (ids[middle]! <= after) low = middle + 1;
    else high = middle;
  }
  return low;
}
