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
  if (typeof value === 'string') return unstorableString(value);
  if (Array.isArray(value)) return value.some(holdsUnstorableText);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([key, item]) => unstorableString(key) || holdsUnstorableText(item));
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
