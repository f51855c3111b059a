import type { HistoryInterval } from '@exchange/contracts';

/** Seconds of each interval ending now; `1m` is a month (30 days) as upstream. */
export const INTERVAL_SECONDS: Record<Exclude<HistoryInterval, 'max' | 'all'>, number> = {
  '1h': 3_600,
  '6h': 6 * 3_600,
  '1d': 86_400,
  '1w': 7 * 86_400,
  '1m': 30 * 86_400,
};

/** A history holds at most this many points: the latest ones (`max` upstream is capped likewise). */
export const MAX_POINTS = 5_000;

/**
 * The times (unix seconds) of a history's points: the multiples of `step` in [start, end], plus `end`
 * itself when it is not one (the "now" point), keeping the latest MAX_POINTS.
 */
export function historyGrid(start: number, end: number, step: number): number[] {
  if (end < start) return [];
  const first = Math.max(Math.ceil(start / step) * step, Math.floor(end / step) * step - (MAX_POINTS - 1) * step);
  const grid: number[] = [];
  for (let t = first; t <= end; t += step) grid.push(t);
  if (grid[grid.length - 1] !== end) grid.push(end);
  return grid.length > MAX_POINTS ? grid.slice(grid.length - MAX_POINTS) : grid;
}

/**
 * Each point is the price of the last trade at or before its time, carried forward from earlier
 * points; points before the first trade are left out. `prior` is the price at the first point;
 * `lastInBucket` maps a point's index to the last price of the trades after the previous point.
 */
export function carryForward(grid: readonly number[], prior: number | undefined, lastInBucket: ReadonlyMap<number, number>): { t: number; price: number }[] {
  const points: { t: number; price: number }[] = [];
  let price = prior;
  grid.forEach((t, index) => {
    price = lastInBucket.get(index) ?? price;
    if (price !== undefined) points.push({ t, price });
  });
  return points;
}
