import type { Redis } from 'ioredis';
import { TurnBatch } from './turn-batch';

/** One token bucket of a request: its field in the caller's hash, capacity and refill window. */
export interface BucketCheck {
  field: string;
  limit: number;
  windowMs: number;
  /** Takes a token per item of the request (`Admission.items`) rather than one per request. */
  perItem: boolean;
}

/** What one request asks of Redis: a signature to claim (signed writes), token buckets to take from. */
export interface Admission {
  /**
   * Key remembering a signed write's signature, and the latest time it can have been signed (unix ms:
   * a timestamp in seconds may be of any millisecond of its second); absent for requests that may repeat.
   * `repeatableForMs`: the same signature is taken again (`repeat`) for that long after its first use.
   */
  claim?: { key: string; signedByMs: number; repeatableForMs?: number };
  /** The hash of the caller's buckets (one per client address or API key). */
  bucketsKey: string;
  /** The route's buckets: the same array for every request of a route, sent once per script run. */
  buckets: readonly BucketCheck[];
  /** What the request carries for its `perItem` buckets (orders, order ids): 1 unless given. */
  items?: number;
}

/** The state of a request's most depleted bucket. */
export interface BucketVerdict {
  admitted: boolean;
  limit: number;
  remaining: number;
  /** Unix ms at which that bucket is full again. */
  resetAtMs: number;
  /** When refused: how long until every bucket of the request holds a token again. */
  retryAfterMs: number;
}

/**
 * A claim's outcome: `new`, `seen` (a replay), `before-memory`: signed before Redis's memory of claims
 * began (it restarted empty or lost its data), so a replay could not be told apart; `repeat`: seen,
 * but within its `repeatableForMs` of the first use, so taken again (the first use keeps the claim); or
 * `stale`: its timestamp is outside the freshness window by Redis's clock, though the gateway process
 * found it fresh by its own (their clocks differ), so neither claimed nor admitted.
 * Nothing is taken from the buckets unless `new` or `repeat`.
 */
export type ClaimOutcome = 'new' | 'seen' | 'before-memory' | 'repeat' | 'stale';

/** How long claims are remembered, and the freshness window of the timestamps they are made for. */
export interface ClaimSettings {
  /** At least 2 × `maxSkewMs` + 1 s: a claim outlives every moment its timestamp is fresh at (by Redis's clock). */
  ttlSeconds: number;
  maxSkewMs: number;
}

/** A failure answer kept with a claim (`AdmissionStore.keepAnswer`), to be sent again to its replays. */
export interface KeptAnswer {
  status: number;
  /** The answer's JSON text. */
  body: string;
}

export interface AdmissionAnswer {
  claim: ClaimOutcome;
  /** For a `stale` claim: Redis's clock (unix ms) when it judged, to tell how far the process's is off. */
  redisNowMs?: number;
  /** Null without buckets, or for a claim that was not new. */
  verdict: BucketVerdict | null;
  /** For a replay (`seen`): the failure its first use was answered, if it was one. */
  kept?: KeptAnswer;
}

const OUTCOMES: ClaimOutcome[] = ['seen', 'new', 'before-memory', 'repeat', 'stale'];

/**
 * How many times a repeatable claim (`repeatableForMs`) is taken again: a market maker's cancel-alls of
 * one second, while a captured one sent in a loop could otherwise spend its owner's cancel limits.
 */
const MAX_REPEATS = 4;

/** A kept answer as the script returns it: status, a newline, the JSON text. */
function keptAnswerOf(held: number | string | undefined): KeptAnswer | undefined {
  if (typeof held !== 'string') return undefined;
  const cut = held.indexOf('\n');
  const status = Number(held.slice(0, cut));
  return cut > 0 && Number.isInteger(status) ? { status, body: held.slice(cut + 1) } : undefined;
}

/**
 * Per request, in order: the claim (`SET NX EX` of the time of its first use, to which a failure answer
 * may be added later: `keepAnswer`), then, unless it was a replay, the buckets. A claim is made only for
 * a timestamp fresh by Redis's clock (`stale` otherwise): each gateway process judges freshness by its
 * own clock too, and with that alone a replay sent to a process whose clock was more than the claim's
 * few spare seconds behind the first one's was accepted after the claim had expired (found by a probe
 * of two replicas, one 6.5 s behind: a split made twice). Redis's clock, like its memory, is one for every
 * process, so the claim outlives every moment any of them can accept the timestamp. A bucket is
 * GCRA, a token bucket kept as one "theoretical arrival time" (TAT, ms, on Redis's clock so that gateway
 * replicas agree) per field of the caller's hash: a bucket of `limit` per `window` admits a request when
 * its TAT one interval (window / limit) later is at most a window ahead of now; a per-item bucket takes
 * as many intervals as the request has items (at most `limit`, so that a batch larger than a tiny scaled
 * limit is not refused for ever). A request is admitted only if every one of its buckets admits it,
 * and then charged to all of them; a refused request is charged to none. The hash lives as long as its
 * least full bucket and at most a minute longer (its expiry moves a minute at a time, so that most
 * requests need no expiry command). Two requests of one run on the same bucket see each other.
 *
 * Claims are only as old as Redis's data: a Redis that keeps nothing on disk forgets every claim when it
 * restarts, and a `FLUSHALL` or an eviction drops them too. KEYS[1], kept without expiry, holds the
 * moment from which this memory is whole: a run that finds it missing takes now, as the data was lost
 * at some moment up to now. A claim of a write certainly signed before it (the last millisecond its
 * timestamp allows is earlier) is answered `before-memory` and neither made nor charged: its first use
 * may have been forgotten (until the nineteenth session a write sent again after a Redis restart,
 * within its timestamp's window, was carried out twice; found by a chaos probe). The store runs the
 * script for no request whenever its connection becomes ready, so that the moment of a fresh or
 * restarted Redis is when the gateway reached it, not the first signed write, which would be refused.
 * Until the twenty-first session the moment was Redis's start, from `INFO`'s uptime: a flush was not
 * noticed, and a write sent again after one was carried out again.
 *
 * ARGV: claim TTL s, the freshness window ms, the run's distinct bucket sets (count, then per set its size and (field, limit,
 * window ms, per-item flag) per bucket), request count, then per request: its claim (0: none, else 1 +
 * how long it may be repeated, in ms), its set's number (0: none), the latest signing time of its claim
 * (ms; 0 without a claim) and its items; a claim is repeated at most MAX_REPEATS times. Sending each
 * route's set once per run rather than with every request keeps the command small (the arguments of
 * every request cost the gateway CPU to encode). KEYS: the key of the moment the memory is whole
 * from, then per request its claim key if flagged, then its hash if it has buckets. Answers per
 * request: claim outcome (0 seen, 1 new, 2 before that moment, 3 a repeat, 4 stale: then Redis's time in the limit's place), admitted, limit, remaining, reset ms,
 * retry-after ms, and for a replay the answer kept with its claim (status, a newline, the JSON text), if any.
 */
const ADMIT_SCRIPT = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local claim_ttl = ARGV[1]
local skew_ms = tonumber(ARGV[2])
local since = tonumber(redis.call('GET', KEYS[1]) or '-1')
if since == -1 then
  -- Redis lost its data (a restart empty, a flush, an eviction) at some moment up to now: claims may be gone.
  since = now
  redis.call('SET', KEYS[1], string.format('%.17g', since))
end
local sets = {}
local a = 4
for s = 1, tonumber(ARGV[3]) do
  local n = tonumber(ARGV[a])
  local set = { fields = {}, limits = {}, windows = {}, intervals = {}, per_item = {}, read = {} }
  for b = 1, n do
    local at = a + 1 + (b - 1) * 4
    set.fields[b], set.limits[b], set.windows[b] = ARGV[at], tonumber(ARGV[at + 1]), tonumber(ARGV[at + 2])
    set.per_item[b] = ARGV[at + 3] == '1'
    set.intervals[b] = set.windows[b] / set.limits[b]
    set.read[b] = set.fields[b]
  end
  set.read[n + 1] = '_exp'
  sets[s] = set
  a = a + 1 + n * 4
end
local count = tonumber(ARGV[a])
a = a + 1
local k = 2
local answers = {}
for c = 1, count do
  local claimed, s, signed_by, items = tonumber(ARGV[a]), tonumber(ARGV[a + 1]), tonumber(ARGV[a + 2]), tonumber(ARGV[a + 3])
  a = a + 4
  local first = 1
  local kept = nil
  if claimed > 0 then
    local repeat_ms = claimed - 1
    -- signed_by is the timestamp's last millisecond: one in seconds spans 999 more before it (one in
    -- milliseconds so gets 999 ms of slack into the future, which the claim's life covers).
    if now - signed_by > skew_ms or signed_by - 999 - now > skew_ms then
      first = 4
    elseif signed_by < since then
      first = 2
    elseif not redis.call('SET', KEYS[k], string.format('%.17g', now), 'NX', 'EX', claim_ttl) then
      -- The claim holds its first use's time and, after a colon, its repeats so far, then after a newline
      -- the kept answer if any. One made before the time was kept (the value 1) reads as long ago.
      local held = redis.call('GET', KEYS[k]) or ''
      local head = string.match(held, '^[^\\n]*')
      local used_at = tonumber(string.match(head, '^[^:]*')) or 0
      local repeats = tonumber(string.match(head, ':(%d+)$')) or 0
      if repeat_ms > 0 and now - used_at <= repeat_ms and repeats < ${MAX_REPEATS} then
        first = 3
        redis.call('SET', KEYS[k], string.match(head, '^[^:]*') .. ':' .. (repeats + 1) .. (string.match(held, '(\\n.*)$') or ''), 'KEEPTTL')
      else
        first = 0
        kept = string.match(held, '\\n(.*)$')
      end
    end
    k = k + 1
  end
  local answer = { first, 0, 0, 0, 0, 0 }
  if s > 0 then
    local key = KEYS[k]
    k = k + 1
    if first == 1 or first == 3 then
      local set = sets[s]
      local fields, limits, windows, tats, steps = set.fields, set.limits, set.windows, {}, {}
      local n = #fields
      local stored = redis.call('HMGET', key, unpack(set.read))
      local admitted, wait = 1, 0
      for b = 1, n do
        local tat = tonumber(stored[b] or '0')
        if tat < now then tat = now end
        tats[b] = tat
        steps[b] = set.intervals[b] * (set.per_item[b] and math.min(items, limits[b]) or 1)
        -- Tolerances of a hundredth (of a ms, of a token): times near 1.8e12 ms carry float errors of ~1e-4.
        local early = tat + steps[b] - windows[b] - now
        if early > 0.01 then
          admitted = 0
          if early > wait then wait = early end
        end
      end
      local best_remaining, best_limit, best_reset = nil, 0, now
      local writes, longest = {}, 0
      for b = 1, n do
        local tat = tats[b]
        if admitted == 1 then
          tat = tat + steps[b]
          writes[#writes + 1] = fields[b]
          writes[#writes + 1] = string.format('%.17g', tat)
          if tat - now > longest then longest = tat - now end
        end
        local remaining = math.max(0, math.floor((now + windows[b] - tat) / set.intervals[b] + 0.01))
        if best_remaining == nil or remaining < best_remaining or (remaining == best_remaining and tat > best_reset) then
          best_remaining, best_limit, best_reset = remaining, limits[b], tat
        end
      end
      if admitted == 1 then
        -- The hash must outlive its least full bucket; its expiry, kept in the field _exp too, moves a
        -- minute ahead when that is passed, so most requests need no expiry command at all.
        local expires = tonumber(stored[n + 1] or '0')
        if now + longest > expires then
          expires = math.ceil(now + longest) + 60000
          writes[#writes + 1] = '_exp'
          writes[#writes + 1] = expires
          redis.call('HSET', key, unpack(writes))
          redis.call('PEXPIREAT', key, expires)
        else
          redis.call('HSET', key, unpack(writes))
        end
      end
      answer = { first, admitted, best_limit, best_remaining, math.ceil(best_reset), math.ceil(wait) }
    end
  end
  if first == 4 then answer[3] = now end
  if kept then answer[7] = kept end
  answers[c] = answer
end
return answers`;

/** Adds a failure answer to a claim, after its first use's time (KEYS[1]: the claim; ARGV[1]: the answer). */
const KEEP_ANSWER_SCRIPT = `
local held = redis.call('GET', KEYS[1])
if not held then return 0 end
redis.call('SET', KEYS[1], string.match(held, '^[^\\n]*') .. '\\n' .. ARGV[1], 'XX', 'KEEPTTL')
return 1`;

/** A bound on one script run's requests. */
const MAX_BATCH = 128;

type AdmittingRedis = Redis & {
  admitRequests(keyCount: number, ...args: (string | number)[]): Promise<(number | string)[][]>;
  keepAnswer(claimKey: string, answer: string): Promise<number>;
};

/**
 * What the gateway asks Redis of each request, in one script run per event-loop turn (`TurnBatch`):
 * whether a signed write's signature is new (replay refusal, docs/auth.md) and whether the caller's rate
 * limits admit it (docs/gateway.md, "Rate limits"); a signed write costs one round trip for both. All
 * keys of a run must live on one Redis node: a single Redis, as configured here, not a cluster.
 */
export class AdmissionStore {
  private readonly batch: TurnBatch<Admission, AdmissionAnswer>;
  /**
   * A run for no request: notes a Redis that lost its data as soon as it is reached (made whenever the
   * connection becomes ready).
   */
  readonly noteMemory: () => Promise<void>;
  private readonly admitting: AdmittingRedis;

  /** `sinceKey`: where the script keeps the moment from which Redis's memory of claims is whole. */
  constructor(redis: Redis, claims: ClaimSettings, sinceKey: string) {
    if (claims.ttlSeconds * 1_000 < 2 * claims.maxSkewMs + 1_000) throw new Error('a claim must outlive twice the freshness window and a second');
    redis.defineCommand('admitRequests', { lua: ADMIT_SCRIPT });
    redis.defineCommand('keepAnswer', { lua: KEEP_ANSWER_SCRIPT, numberOfKeys: 1 });
    const admitting = redis as AdmittingRedis;
    this.admitting = admitting;
    this.noteMemory = () => admitting.admitRequests(1, sinceKey, claims.ttlSeconds, claims.maxSkewMs, 0, 0).then(() => undefined);
    // A failure leaves it to the next run, which any signed write makes.
    const note = () => void this.noteMemory().catch(() => undefined);
    redis.on('ready', note);
    if (redis.status === 'ready') note();
    this.batch = new TurnBatch(async (admissions) => {
      // Fails at once while disconnected: a run sent then waited for the reconnection, up to its 2 s
      // timeout, and every request of a Redis outage with it, /ok included (found by a chaos probe).
      if (redis.status !== 'ready') throw new Error(`redis is ${redis.status}`);
      const keys: string[] = [sinceKey];
      const sets = new Map<readonly BucketCheck[], number>();
      const perRequest: number[] = [];
      for (const { claim, bucketsKey, buckets, items } of admissions) {
        if (claim !== undefined) keys.push(claim.key);
        let set = 0;
        if (buckets.length > 0) {
          keys.push(bucketsKey);
          set = sets.get(buckets) ?? sets.set(buckets, sets.size + 1).size;
        }
        perRequest.push(claim === undefined ? 0 : 1 + (claim.repeatableForMs ?? 0), set, claim?.signedByMs ?? 0, items ?? 1);
      }
      const args: (string | number)[] = [claims.ttlSeconds, claims.maxSkewMs, sets.size];
      for (const buckets of sets.keys()) {
        args.push(buckets.length);
        for (const bucket of buckets) args.push(bucket.field, bucket.limit, bucket.windowMs, bucket.perItem ? 1 : 0);
      }
      args.push(admissions.length, ...perRequest);
      const answers = await admitting.admitRequests(keys.length, ...keys, ...args);
      return answers.map((answer, i) => {
        const [first, admitted, limit, remaining, resetAtMs, retryAfterMs] = answer as number[];
        const kept = keptAnswerOf(answer[6]);
        return {
          claim: OUTCOMES[first!]!,
          verdict:
            (first === 1 || first === 3) && admissions[i]!.buckets.length > 0
              ? { admitted: admitted === 1, limit: limit!, remaining: remaining!, resetAtMs: resetAtMs!, retryAfterMs: retryAfterMs! }
              : null,
          ...(kept && { kept }),
          ...(first === 4 && { redisNowMs: limit! }),
        };
      });
    }, MAX_BATCH);
  }

  admit(admission: Admission): Promise<AdmissionAnswer> {
    return this.batch.add(admission);
  }

  /**
   * Keeps the failure a claimed write (`Admission.claim.key`) was answered with, so that a replay of it
   * is answered the same (`AdmissionAnswer.kept`) rather than told it is a replay.
   */
  async keepAnswer(claimKey: string, answer: KeptAnswer): Promise<void> {
    if (this.admitting.status !== 'ready') throw new Error(`redis is ${this.admitting.status}`);
    await this.admitting.keepAnswer(claimKey, `${answer.status}\n${answer.body}`);
  }
}
