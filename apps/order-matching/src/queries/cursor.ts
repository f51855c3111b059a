/** CLOB list cursors: base64 offsets, "MA==" for the first page and "LTE=" (-1) after the last. */
export const FIRST_PAGE = 'MA==';
export const END_CURSOR = 'LTE=';

export function offsetOf(cursor: string | undefined): number | null {
  if (!cursor || cursor === FIRST_PAGE) return 0;
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  return /^\d{1,9}$/.test(text) ? Number(text) : null;
}

export function nextCursor(offset: number, returned: number, limit: number): string {
  return returned < limit ? END_CURSOR : Buffer.from(String(offset + returned)).toString('base64');
}
