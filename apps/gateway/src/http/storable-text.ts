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
