import { cursorAfter, decodeCursor, encodeCursor, listClobMarketsRequest } from '@exchange/contracts';
import { carryForward, historyGrid, MAX_POINTS } from '../../src/history/history-grid';

describe('CLOB cursors', () => {
  it('are base64 offsets: MA== first, LTE= after the last page', () => {
    expect(encodeCursor(0)).toBe('MA==');
    expect(encodeCursor(500)).toBe('NTAw');
    expect(decodeCursor('NTAw')).toBe(500);
    expect(decodeCursor('LTE=')).toBeNull();
    expect(decodeCursor('not base64!')).toBeNull();
    expect(cursorAfter(0, 500, 1200)).toBe('NTAw');
    expect(cursorAfter(1000, 200, 1200)).toBe('LTE=');
    expect(cursorAfter(0, 0, 0)).toBe('LTE=');
  });

  it('are checked by the request schema', () => {
    expect(listClobMarketsRequest.parse({})).toEqual({ next_cursor: 0, limit: 500 });
    expect(listClobMarketsRequest.parse({ next_cursor: 'MTAw', limit: '20' })).toEqual({ next_cursor: 100, limit: 20 });
    expect(listClobMarketsRequest.safeParse({ next_cursor: 'LTE=' }).error?.issues[0]?.message).toMatch(/end of the list/);
    expect(listClobMarketsRequest.safeParse({ limit: '501' }).success).toBe(false);
  });
});

describe('price history points', () => {
  it('fall on multiples of the fidelity, plus the end itself', () => {
    expect(historyGrid(100, 400, 60)).toEqual([120, 180, 240, 300, 360, 400]);
    expect(historyGrid(120, 360, 60)).toEqual([120, 180, 240, 300, 360]);
    expect(historyGrid(130, 150, 60)).toEqual([150]);
    expect(historyGrid(10, 5, 60)).toEqual([]);
  });

  it('are capped to the latest points', () => {
    const grid = historyGrid(0, 60 * (MAX_POINTS + 100), 60);
    expect(grid).toHaveLength(MAX_POINTS);
    expect(grid[grid.length - 1]).toBe(60 * (MAX_POINTS + 100));
  });

  it('carry the last trade price forward and start at the first trade', () => {
    const grid = [120, 180, 240, 300];
    expect(carryForward(grid, undefined, new Map([[2, 55]]))).toEqual([
      { t: 240, price: 55 },
      { t: 300, price: 55 },
    ]);
    expect(carryForward(grid, 40, new Map([[1, 50], [3, 60]])).map((p) => p.price)).toEqual([40, 50, 50, 60]);
  });
});
