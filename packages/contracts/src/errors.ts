/**
 * Every error code the exchange answers with, in one place. The HTTP status travels with the code so
 * that services can answer a coded result and the gateway maps it without a second table.
 */
export const ErrorCodes = {
  invalid_request: 400,
  invalid_json: 400,
  /** L1: the API key of this address and nonce was deleted; another nonce gives new credentials. */
  nonce_already_used: 400,
  /** L1: the address holds as many API keys as it may; deleting one makes room. */
  too_many_api_keys: 400,
  unauthorized: 401,
  forbidden: 403,
  route_not_found: 404,
  event_not_found: 404,
  market_not_found: 404,
  /** A token no market of the exchange has (the book routes). */
  orderbook_not_found: 404,
  site_not_found: 404,
  tag_not_found: 404,
  series_not_found: 404,
  /** An import id the catalog has no record of. */
  import_not_found: 404,
  insufficient_balance: 400,
  nothing_to_redeem: 400,
  order_not_found: 404,
  /** Signature type 3 names the caller's deposit wallet, and the operator bound none to its address. */
  wallet_not_found: 404,
  conflict: 409,
  market_resolved: 409,
  market_not_resolved: 409,
  too_early: 425,
  payload_too_large: 413,
  rate_limited: 429,
  post_only_mode: 503,
  service_unavailable: 503,
  internal_error: 500,
} as const;

export type ErrorCode = keyof typeof ErrorCodes;

/** The error body of SPEC.md, used by every error response of every route. */
export interface ErrorBody {
  error: string;
  code: ErrorCode;
  retry_after_seconds?: number;
  /** A heartbeat refused for a wrong id: the session's id, for the client to beat on with (UPSTREAM.md). */
  heartbeat_id?: string;
}

export interface Failure {
  ok: false;
  status: number;
  body: ErrorBody;
}

export interface Success<T> {
  ok: true;
  data: T;
}

/** What every NATS request/reply handler answers: a value or a coded rejection, never a thrown error. */
export type Reply<T> = Success<T> | Failure;

export function ok<T>(data: T): Success<T> {
  return { ok: true, data };
}

export function fail(code: ErrorCode, message: string, retryAfterSeconds?: number): Failure {
  const body: ErrorBody = { error: message, code };
  if (retryAfterSeconds !== undefined) body.retry_after_seconds = retryAfterSeconds;
  return { ok: false, status: ErrorCodes[code], body };
}
