/**
 * Text no service can store as it was sent: PostgreSQL's text refuses U+0000, and an unpaired UTF-16
 * surrogate has no UTF-8 form (Prisma fails on it, node-postgres would store U+FFFD instead). Reaching
 * a service, either was a 500 or altered data; the gateway refuses both with a 400 (docs/gateway.md,
 * "Text a request may carry"), and the catalog's import refuses an event whose own JSON texts (a
 * market's `outcomes`) hold either.
 */
export const UNSTORABLE_TEXT = 'request text may not contain a NUL character (U+0000) or an unpaired UTF-16 surrogate';

const UNPAIRED_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNPAIRED_SURROGATES = new RegExp(UNPAIRED_SURROGATE.source, 'g');

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
 * Text made storable by replacing what PostgreSQL cannot hold (NUL, unpaired surrogates) with U+FFFD:
 * for texts the services write themselves from what they were sent, such as an import's skip reasons,
 * which quote the input (V8's JSON.parse message cuts an emoji in half; a probe saw an import's report
 * refused by the database on every save).
 */
export function storableText(text: string): string {
  return text.replaceAll('\0', '\ufffd').replace(UNPAIRED_SURROGATES, '\ufffd');
}
