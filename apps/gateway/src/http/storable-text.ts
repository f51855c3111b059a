/**
 * Text no service can store as it was sent: PostgreSQL's text refuses U+0000, and an unpaired UTF-16
 * surrogate has no UTF-8 form (Prisma fails on it, node-postgres would store U+FFFD instead). Reaching
 * a service, either was a 500 or altered data; the gateway refuses both with a 400 (docs/gateway.md,
 * "Text a request may carry").
 */
export const UNSTORABLE_TEXT = 'request text may not contain a NUL character (U+0000) or an unpaired UTF-16 surrogate';

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

function unstorableString(text: string): boolean {
  return text.includes('\0') || UNPAIRED_SURROGATE.test(text);
}

/** True when a string anywhere in a parsed JSON value, key or value, is one no service can store. */
export function holdsUnstorableText(value: unknown): boolean {
  // A list of values still to look at rather than recursion: JSON.parse takes arrays nested 100,000
  // deep, past the call stack (a RangeError, answered 500, until 2026-11-26).
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const item = pending.pop();
    if (typeof item === 'string') {
      if (unstorableString(item)) return true;
    } else if (item !== null && typeof item === 'object') {
      for (const [key, inner] of Object.entries(item)) {
        if (!Array.isArray(item) && unstorableString(key)) return true;
        pending.push(inner);
      }
    }
  }
  return false;
}

/**
 * Whether a JSON text needs `holdsUnstorableText` after parsing: both can only arrive as `\u` escapes
 * (raw control characters are invalid JSON, and the body was decoded from UTF-8), so bodies without one,
 * such as every order a client library signs, skip the walk.
 */
export function mayHoldUnstorableText(json: string): boolean {
  return json.includes('\\u');
}

/** A NUL in a URL's path or query string (a raw one is refused by Node's HTTP parser). */
export function urlHoldsNul(url: string): boolean {
  return url.includes('%00');
}
