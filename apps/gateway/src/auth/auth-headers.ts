/**
 * The authentication headers: `SVC_*` or their `POLY_*` aliases (Node hands header names over lower-cased).
 * A header sent twice arrives joined into one value and fails the format checks.
 */
export type AuthHeaderName = 'address' | 'signature' | 'timestamp' | 'nonce' | 'api_key' | 'passphrase';

export type RequestHeaders = Record<string, string | string[] | undefined>;

export function authHeader(headers: RequestHeaders, name: AuthHeaderName): string | undefined {
  const value = headers[`svc_${name}`] ?? headers[`poly_${name}`];
  return typeof value === 'string' ? value : undefined;
}

const TIMESTAMP = /^[0-9]{1,13}$/;

/** A header timestamp in milliseconds: 13 digits are milliseconds, fewer are seconds. */
export function timestampMs(value: string | undefined): number | null {
  if (value === undefined || !TIMESTAMP.test(value)) return null;
  const n = Number(value);
  return value.length === 13 ? n : n * 1_000;
}

/**
 * The latest time (unix ms) a request with this timestamp can have been signed: the timestamp itself
 * in milliseconds, the last millisecond of its second in seconds (`null` when malformed).
 */
export function signedByMs(value: string | undefined): number | null {
  const at = timestampMs(value);
  return at === null || value!.length === 13 ? at : at + 999;
}

/**
 * True when the timestamp is within the freshness window of `nowMs`, either way. A timestamp in seconds
 * stands for its whole second: read as its first millisecond, the window was about 29 s into the past
 * and 31 s into the future (found by a probe).
 */
export function isFresh(value: string | undefined, nowMs: number, maxSkewMs: number): boolean {
  const from = timestampMs(value);
  const to = signedByMs(value);
  return from !== null && to !== null && to >= nowMs - maxSkewMs && from <= nowMs + maxSkewMs;
}
