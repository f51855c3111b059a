import { z } from 'zod';

/**
 * CLOB list cursors (UPSTREAM.md §4): `next_cursor` is the base64 of a decimal offset. "MA==" (0) asks
 * for the first page; "LTE=" (-1) is what the last page answers, and sending it back is a 400 as
 * upstream: there is nothing after the end.
 */
export const FIRST_CURSOR = 'MA==';
export const END_CURSOR = 'LTE=';
/** The page of the trading lists (`/data/orders`, `/data/trades`), as upstream's. */
export const TRADING_PAGE_SIZE = 100;
/** Largest page of the CLOB market lists (ARCHITECTURE.md). */
export const MAX_MARKETS_PAGE = 500;

export function encodeCursor(offset: number): string {
  return Buffer.from(String(offset), 'utf8').toString('base64');
}

/** The offset a cursor stands for, or null when it is not a base64 offset (the end cursor included). */
export function decodeCursor(cursor: string): number | null {
  if (cursor === '' || cursor === FIRST_CURSOR) return 0;
  if (!/^[A-Za-z0-9+/]{1,16}={0,2}$/.test(cursor)) return null;
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  return /^\d{1,9}$/.test(text) ? Number(text) : null;
}

/** The cursor after a page: the end cursor once the page is not full or nothing follows. */
export function cursorAfter(offset: number, returned: number, total: number): string {
  return offset + returned >= total ? END_CURSOR : encodeCursor(offset + returned);
}

/**
 * The cursor after a page of a list whose length is not counted (the trading lists): the end cursor
 * once a page comes back short.
 */
export function cursorAfterPage(offset: number, returned: number, pageSize: number): string {
  return returned < pageSize ? END_CURSOR : encodeCursor(offset + returned);
}

/** `next_cursor` of a request, as an offset (accepts the query-string form and the decoded number). */
export const cursorOffset = z.unknown().transform((value, ctx) => {
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  if (typeof value === 'string') {
    if (value === END_CURSOR) {
      ctx.addIssue({ code: 'custom', message: 'next_cursor LTE= marks the end of the list: there are no more pages' });
      return z.NEVER;
    }
    const offset = decodeCursor(value);
    if (offset !== null) return offset;
  }
  ctx.addIssue({ code: 'custom', message: 'next_cursor must be a cursor returned by a previous page (base64 offset)' });
  return z.NEVER;
});
