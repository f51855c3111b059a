import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decodeL2Signature, l2SignatureBytes } from '@exchange/chain';
import { isDatabaseUnavailable, ThrottledLog } from '@exchange/service-kit';
import type { ErrorBody } from '@exchange/contracts';
import type { KeptAnswer } from '../http/admission-store';
import { ApiError } from '../http/api-error';
import { pathOf } from '../http/path-of';
import { itemsOf } from '../rate-limits/rate-limit-rules';
import { RateLimiter, type ResponseHeaders } from '../rate-limits/rate-limiter';
import type { ApiCaller, AuthenticatedRequest } from './api-caller';
import type { ActiveApiKey } from './api-key-cache';
import { ApiKeysService } from './api-keys.service';
import { authHeader, isFresh, signedByMs, type RequestHeaders } from './auth-headers';
import { AuthResources } from './auth-resources';

/** What the L2 check reads of a request. */
export interface SignedRequest {
  /** The HTTP request, for the client's address. */
  raw: IncomingMessage;
  method: string;
  /** Path and query as received; the query string is not signed. */
  url: string;
  headers: RequestHeaders;
  /** The body exactly as received (kept by the JSON parser of the gateway), if any. */
  rawBody?: string;
  /** The body parsed: the orders or ids a batch carries count against its per-item limits (`itemsOf`). */
  body?: unknown;
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/**
 * Cancels of a market's orders or of all orders are taken again with the same signature for this long
 * after their first use: the stock clients sign in whole seconds, so the same cancel-all twice in one
 * second has the same headers, and refused as a replay it left the orders placed in between on the book
 * (a market-making probe). The second one ends them, as meant. Whoever captured such a cancel could do
 * the same within that time, and no later: the orders it could end are those placed in those 2 s.
 */
const CANCELS_REPEATABLE_MS = 2_000;
const REPEATABLE_CANCELS = new Set(['DELETE /cancel-all', 'DELETE /cancel-market-orders']);
/**
 * Writes that may repeat: beats that keep a running session alive. One sent again only keeps it alive
 * until its timestamp goes stale (the L2 window), while a claim would refuse the stock clients' two beats
 * of one second and, with Redis down, every beat, so that a client beating faithfully lost all its orders
 * in a Redis outage longer than the heartbeat timeout (found by a chaos probe). A beat with an empty
 * `heartbeat_id` starts a new session, replacing the running one, so it is claimed like any write: until
 * the twenty-third session anyone who saw it could send it again and leave the client beating an id that
 * is no longer the session's, which cancels its orders (found by a security probe). The legacy route names
 * no session and never replaces one.
 */
function mayRepeat(endpoint: string, rawBody: string | undefined): boolean {
  if (endpoint === 'POST /heartbeats') return true;
  if (endpoint !== 'POST /v1/heartbeats') return false;
  try {
    const id: unknown = (JSON.parse(rawBody ?? 'null') as { heartbeat_id?: unknown } | null)?.heartbeat_id;
    return typeof id === 'string' && id !== '';
  } catch {
    return false;
  }
}

/** Who made a request, and the state of its key's rate limits for the response. */
export interface Authenticated {
  caller: ApiCaller;
  headers: ResponseHeaders;
  /** The replay claim of a signed write, to keep its answer with if it fails (`keepFailure`). */
  replayClaim?: string;
  /**
   * A replay of a write that failed: its caller is authenticated (so not counted as failing), and it is
   * answered with this, the failure kept for it, instead of being carried out.
   */
  replayed?: ApiError;
}

const refused = () => ApiError.of('unauthorized', 'Unauthorized/Invalid api key');
/**
 * A replay says so: its signature is valid, so the text tells a replayer nothing new, while the stock
 * clients (second timestamps) send an identical write twice in one second and, told their key was
 * invalid, may drop good credentials (found by a probe with the stock client).
 */
const REPLAYED = 'Unauthorized: this signed request was already received (a replay); sign it again with a later timestamp';
/** Signed before Redis, which remembers received writes, lost them (a restart, a flush): it may have been received before. */
const BEFORE_MEMORY =
  'Unauthorized: this signed request is older than the exchange\'s memory of received requests (it was reset), so it may be a replay; sign it again with a later timestamp';

/** Said of a kept failure when it is answered to a replay. */
const ANSWERED_AGAIN = 'the answer to the first sending of this signed request; sign it again to retry';

/**
 * The failure kept for a replay, answered again as it was (its body is that route's: an order result,
 * say), its `error` saying so; a kept text that is no error body is the replay's 401.
 */
function keptFailure({ status, body }: KeptAnswer): ApiError {
  let kept: unknown;
  try {
    kept = JSON.parse(body);
  } catch {
    kept = undefined;
  }
  const error = (kept as { error?: unknown } | undefined)?.error;
  if (typeof error !== 'string') return ApiError.of('unauthorized', REPLAYED);
  return new ApiError({ ok: false, status, body: { ...(kept as ErrorBody), error: `${error} (${ANSWERED_AGAIN})` } });
}

function sameBytes(a: Buffer, b: Buffer): boolean {
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * L2: the request carries an API key of the address in `*_ADDRESS`, its passphrase, a fresh timestamp
 * and the HMAC of timestamp + method + path + body with the key's secret. A signed write is accepted
 * once (its signature is remembered in Redis for twice the window); a signed GET may be repeated within
 * the window, as the clients reuse headers across cursor pages. Every refusal is the same 401, but a
 * replay's text says what it is. The replay claim and the key's rate limits (`RateLimiter`) take one
 * Redis round trip together.
 */
@Injectable()
export class L2Authenticator {
  private readonly logger = new Logger('L2Authenticator');
  /** Writes this process found fresh and Redis's clock did not, its clock a second or more off, said every 30 s at most. */
  private readonly clockApart = new ThrottledLog();

  constructor(
    private readonly resources: AuthResources,
    private readonly keys: ApiKeysService,
    private readonly limiter: RateLimiter,
  ) {}

  /**
   * The caller of a signed request. Failures count against the request's failing party (its client
   * address, or that address and the key it names: `RateLimiter.failingParty`): a party with too many of
   * them is refused with 429 before the HMAC and the key lookup. `route` is the route pattern the request
   * matched: the limits are the route's, however its path was written (the signed path, `/%6Frder` say,
   * escaped the order limits until the twenty-second session; a probe).
   */
  async authenticate(request: SignedRequest, route: string, nowMs = Date.now()): Promise<Authenticated> {
    const party = this.limiter.failingParty(request.raw);
    this.limiter.refuseFailing(party);
    try {
      return await this.verify(request, route, nowMs);
    } catch (error) {
      if (error instanceof ApiError && error.failure.status === 401) this.limiter.authFailed(party);
      throw error;
    }
  }

  /**
   * Refuses (429) a request of a party that used up its failed authentications, before its body is read;
   * answers the party (read while the socket is open: a client gone mid-body has no address after).
   */
  refuseFailing(raw: IncomingMessage): string {
    const party = this.limiter.failingParty(raw);
    this.limiter.refuseFailing(party);
    return party;
  }

  /**
   * Keeps a signed write's failure answer (status 400 or more) with its replay claim (`Authenticated.replayClaim`),
   * so that a replay is answered the same: the stock clients' `retryOnError` sends a `POST` again with the
   * same headers 30 ms after a 5xx, and was told "replay" (a 401) where post-only mode had answered a 503
   * with `retry_after_seconds` (found by a probe with the stock client). `body`: the answer's JSON text.
   */
  async keepFailure(replayClaim: string | undefined, status: number, body: string): Promise<void> {
    if (replayClaim !== undefined && status >= 400) await this.limiter.keepAnswer(replayClaim, { status, body });
  }

  /**
   * Counts a request to a signed route that was refused before it could be authenticated (a body that is
   * not JSON, another content type) as a failed authentication of its party: no key's limits count it,
   * and until the twenty-second session a flood of them was limited by nothing (a probe sent 6,000 in
   * about a second from one address).
   */
  refusedUnauthenticated(party: string): void {
    this.limiter.authFailed(party);
  }

  private async verify(request: SignedRequest, route: string, nowMs: number): Promise<Authenticated> {
    const headers = request.headers;
    const address = authHeader(headers, 'address');
    const apiKey = authHeader(headers, 'api_key');
    const passphrase = authHeader(headers, 'passphrase');
    const timestamp = authHeader(headers, 'timestamp');
    const signatureHeader = authHeader(headers, 'signature');
    if (!address || !apiKey || !passphrase || !timestamp || !signatureHeader) throw refused();
    // Looked up before the timestamp is checked, so that a client whose clock is off has its key cached
    // and its failures counted with that key, not against every client of its address (`failingParty`).
    const key = await this.lookUp(apiKey.toLowerCase());
    if (!key) throw refused();
    if (!isFresh(timestamp, nowMs, this.resources.settings.maxSkewMs)) throw refused();
    const signature = decodeL2Signature(signatureHeader);
    if (!signature) throw refused();
    if (!sameBytes(Buffer.from(passphrase, 'utf8'), key.passphrase)) throw refused();
    if (address.toLowerCase() !== key.address) throw refused();

    const path = pathOf(request.url);
    const expected = l2SignatureBytes(key.hmacKey, timestamp, request.method, path, request.rawBody);
    if (!sameBytes(signature, expected)) throw refused();

    const endpoint = `${request.method} ${route}`;
    const claimed = WRITES.has(request.method) && !mayRepeat(endpoint, request.rawBody);
    const repeatableForMs = REPEATABLE_CANCELS.has(endpoint) ? CANCELS_REPEATABLE_MS : 0;
    const write = claimed ? { signature: expected.toString('base64url'), signedByMs: signedByMs(timestamp)!, repeatableForMs } : undefined;
    const admitted = await this.admit(key, request.method, route, write, itemsOf(request.method, route, request.body));
    const caller = { apiKey: key.apiKey, address: key.address };
    if (admitted.claim === 'new' || admitted.claim === 'repeat') return { caller, headers: admitted.headers, replayClaim: admitted.claimKey };
    if (admitted.claim === 'seen' && admitted.kept) return { caller, headers: admitted.headers, replayed: keptFailure(admitted.kept) };
    if (admitted.claim === 'stale') {
      this.sayClocksApart(admitted.redisNowMs);
      throw refused();
    }
    throw ApiError.of('unauthorized', admitted.claim === 'before-memory' ? BEFORE_MEMORY : REPLAYED);
  }

  /**
   * Said when the clocks differ by a second or more: a timestamp at the window's edge may also go stale
   * while its key is read from the database, which is no fault of a clock.
   */
  private sayClocksApart(redisNowMs: number | undefined): void {
    const offsetMs = redisNowMs === undefined ? 0 : redisNowMs - Date.now();
    if (Math.abs(offsetMs) < 1_000) return;
    const how = `${Math.abs(offsetMs)} ms ${offsetMs > 0 ? 'behind' : 'ahead of'} Redis's`;
    this.clockApart.occurred((since) =>
      this.logger.warn(`${since} signed write(s) refused as stale by Redis's clock: this process's clock is ${how}; keep the gateway hosts' and Redis's clocks in sync (docs/auth.md, "Replay refusal")`),
    );
  }

  private async lookUp(apiKey: string): Promise<ActiveApiKey | null> {
    try {
      return await this.keys.activeKey(apiKey);
    } catch (error) {
      // An unavailable database is said once by ApiKeysService; anything else is a fault worth its stack.
      if (!isDatabaseUnavailable(error)) this.logger.error(error instanceof Error ? error : String(error), 'api key lookup failed');
      throw ApiError.of('service_unavailable', 'authentication is unavailable, retry shortly', 1);
    }
  }

  private async admit(key: ActiveApiKey, method: string, route: string, write: { signature: string; signedByMs: number } | undefined, items: number) {
    try {
      return await this.limiter.admitSigned(key, method, route, write, items);
    } catch (error) {
      if (error instanceof ApiError) throw error;
      // Without Redis a replay cannot be told apart: refuse writes rather than accept them unchecked
      // (the limiter says so, every 30 s at most). Cancels too: a replayed cancel is a real cancel.
      throw ApiError.of('service_unavailable', 'authentication is unavailable, retry shortly', 1);
    }
  }
}

/**
 * Guards a route with L2 authentication and the rate limits of the caller's address (its API key's):
 * `@UseGuards(L2AuthGuard)`, then `@ApiCaller()` in the handler gives `{ apiKey, address }` (lower-case
 * address).
 */
@Injectable()
export class L2AuthGuard implements CanActivate {
  constructor(private readonly authenticator: L2Authenticator) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<SignedRequest & AuthenticatedRequest & FastifyRequest>();
    const { caller, headers, replayClaim, replayed } = await this.authenticator.authenticate(request, request.routeOptions.url ?? pathOf(request.url));
    void context.switchToHttp().getResponse<FastifyReply>().headers(headers);
    request.apiCaller = caller;
    if (replayed) throw replayed;
    request.replayClaim = replayClaim;
    return true;
  }
}
