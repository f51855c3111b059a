import { Side } from '../core';
import { recordBookChanges } from './engine-events';
import type { EngineState } from './engine-state';

/**
 * Records one book change per market holding every level of its book, as loaded at a restart: a large
 * cancel's first step takes all its orders off the books and commits those changes, but its later steps
 * may never commit (pullOffBooks), so the loaded books can hold levels market data was told had gone.
 */
export function restateBooks(state: EngineState, now: number): void {
  for (const market of state.markets.values()) {
    const levels = [Side.BID, Side.ASK].flatMap((side) => market.book.depth(side, Infinity).map((level): [Side, number] => [side, level.price]));
    recordBookChanges(state, market, levels, now);
  }
}
