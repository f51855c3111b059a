import { cursorAfterPage, decodeCursor, encodeCursor, END_CURSOR, FIRST_CURSOR } from '../src';

describe('CLOB list cursors', () => {
  it('read the first page, base64 offsets, and nothing else', () => {
    expect([decodeCursor(''), decodeCursor(FIRST_CURSOR), decodeCursor(encodeCursor(300))]).toEqual([0, 0, 300]);
    // The trading lists read `MA===` as the first page with a decoder of their own, where the market lists refused it (a probe).
    for (const cursor of [END_CURSOR, 'MA===', '%%', 'bm90LWFuLW9mZnNldA==']) expect(decodeCursor(cursor)).toBeNull();
  });

  it('end a list whose length is not counted at the first short page', () => {
    expect(cursorAfterPage(0, 100, 100)).toBe(encodeCursor(100));
    expect(cursorAfterPage(100, 99, 100)).toBe(END_CURSOR);
    expect(cursorAfterPage(200, 0, 100)).toBe(END_CURSOR);
  });
});
