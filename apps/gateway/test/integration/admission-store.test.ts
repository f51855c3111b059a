import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { deleteRedisKeys, sleep, startPrivateRedis, until, type PrivateRedis } from '@exchange/testing';
import { AdmissionStore, type BucketCheck } from '../../src/http/admission-store';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const CLAIM_TTL = 60;
/** The freshness window of the claims' timestamps: the TTL outlives twice it and a second. */
const MAX_SKEW_MS = 27_500;
const CLAIMS = { ttlSeconds: CLAIM_TTL, maxSkewMs: MAX_SKEW_MS };

/** Replay claims and rate-limit buckets on a real Redis, on its clock, a script run per turn. */
describe('AdmissionStore', () => {
  const prefix = `adm${randomBytes(4).toString('hex')}`;
  let redis: Redis;
  let store: AdmissionStore;
  let runs: jest.SpyInstance;

  beforeAll(async () => {
    redis = new Redis(REDIS_URL);
    // Runs fail at once until the connection is ready.
    await redis.ping();
    store = new AdmissionStore(redis, CLAIMS, `${prefix}:since`);
    // Its key is new: the memory is whole from this run on, before any claim is signed.
    await store.noteMemory();
    // Counts the script runs; each still goes to Redis.
    runs = jest.spyOn(redis as unknown as { admitRequests: () => Promise<number[][]> }, 'admitRequests');
  });
  afterEach(() => runs.mockClear());
  afterAll(async () => {
    await deleteRedisKeys(redis, `${prefix}:`);
    await redis.quit();
  });

  const claim = (name: string, signedByMs = Date.now()) => store.admit({ claim: { key: `${prefix}:seen:${name}`, signedByMs }, bucketsKey: `${prefix}:none`, buckets: [] });
  const take = (who: string, ...buckets: BucketCheck[]) => store.admit({ bucketsKey: `${prefix}:rl:${who}`, buckets });
  const bucket = (field: string, limit: number, windowMs: number, perItem = false): BucketCheck => ({ field, limit, windowMs, perItem });
  /** When a key expires (unix ms, Redis's clock), -1 without an expiry. */
  const expiresAt = async (key: string) => Number(await redis.call('PEXPIRETIME', key));

  describe('claims', () => {
    it('accept each signature once, a repeat in the same turn or a later one refused, in one script run per turn', async () => {
      const names = Array.from({ length: 40 }, (_, i) => `sig-${i}`);
      const firstTurn = await Promise.all([...names, 'sig-3', 'sig-3'].map((name) => claim(name)));
      expect(firstTurn.map((a) => a.claim)).toEqual([...names.map(() => 'new'), 'seen', 'seen']);
      expect(firstTurn.every((a) => a.verdict === null)).toBe(true);
      expect(runs).toHaveBeenCalledTimes(1);
      expect((await claim('sig-0')).claim).toBe('seen');
      const ttl = await redis.ttl(`${prefix}:seen:sig-7`);
      expect(ttl).toBeGreaterThan(CLAIM_TTL - 5);
      expect(ttl).toBeLessThanOrEqual(CLAIM_TTL);
    });

    it('split a very busy turn into runs of at most 128 requests, answering every one', async () => {
      const answers = await Promise.all(Array.from({ length: 600 }, (_, i) => claim(`busy-${i}`)));
      expect(answers.every((a) => a.claim === 'new')).toBe(true);
      expect(runs).toHaveBeenCalledTimes(5);
      expect((await claim('busy-599')).claim).toBe('seen');
    });

    it('take nothing from the buckets of a replay', async () => {
      const limited = { claim: { key: `${prefix}:seen:replayed`, signedByMs: Date.now() }, bucketsKey: `${prefix}:rl:replayer`, buckets: [bucket('b', 3, 10_000)] };
      expect(await store.admit(limited)).toMatchObject({ claim: 'new', verdict: { admitted: true, remaining: 2 } });
      expect(await store.admit(limited)).toEqual({ claim: 'seen', verdict: null });
      expect(await take('replayer', bucket('b', 3, 10_000))).toMatchObject({ verdict: { admitted: true, remaining: 1 } });
    });

    it('take a repeatable claim again for its time after the first use (not the last), charging the buckets, and then refuse it', async () => {
      // 3 s, so that the repeats below fall within it on a loaded machine (1 s left them 0.4 s).
      const repeatable = (bucketsKey: string) =>
        store.admit({ claim: { key: `${prefix}:seen:repeatable`, signedByMs: Date.now(), repeatableForMs: 3_000 }, bucketsKey, buckets: [bucket('b', 2, 60_000)] });
      expect(await repeatable(`${prefix}:rl:repeater`)).toMatchObject({ claim: 'new', verdict: { admitted: true, remaining: 1 } });
      // No earlier than Redis's time of the first use.
      const firstUse = Date.now();
      await sleep(600);
      expect(await repeatable(`${prefix}:rl:repeater`)).toMatchObject({ claim: 'repeat', verdict: { admitted: true, remaining: 0 } });
      // Refused by its limits: the first use keeps its claim, so the time still counts from it.
      expect(await repeatable(`${prefix}:rl:repeater`)).toMatchObject({ claim: 'repeat', verdict: { admitted: false } });
      expect(await redis.exists(`${prefix}:seen:repeatable`)).toBe(1);
      // 3.2 s after the first use, less than 3 s after the last repeat: a replay.
      await sleep(firstUse + 3_200 - Date.now());
      expect(await repeatable(`${prefix}:rl:other`)).toEqual({ claim: 'seen', verdict: null });
      // At most four repeats, however soon they come.
      const looped = () => store.admit({ claim: { key: `${prefix}:seen:looped`, signedByMs: Date.now(), repeatableForMs: 60_000 }, bucketsKey: `${prefix}:none`, buckets: [] });
      const outcomes = [];
      for (let i = 0; i < 7; i++) outcomes.push((await looped()).claim);
      expect(outcomes).toEqual(['new', 'repeat', 'repeat', 'repeat', 'repeat', 'seen', 'seen']);
      // Without a repeat time, the same signature is a replay at once.
      expect((await claim('once')).claim).toBe('new');
      expect((await claim('once')).claim).toBe('seen');
    });

    it('answer a replay with the failure kept for its claim, and otherwise as a replay; a refusal by the buckets keeps its claim', async () => {
      expect((await claim('refused-order')).claim).toBe('new');
      const failure = { status: 503, body: '{"error":"post-only mode","code":"post_only_mode","retry_after_seconds":6}' };
      await store.keepAnswer(`${prefix}:seen:refused-order`, failure);
      for (let i = 0; i < 2; i++) expect(await claim('refused-order')).toEqual({ claim: 'seen', verdict: null, kept: failure });
      // Its expiry is the claim's.
      expect(await redis.ttl(`${prefix}:seen:refused-order`)).toBeGreaterThan(CLAIM_TTL - 5);
      // A claim that is gone keeps nothing: the answer is not kept as a claim of its own.
      await store.keepAnswer(`${prefix}:seen:never-claimed`, failure);
      expect(await redis.exists(`${prefix}:seen:never-claimed`)).toBe(0);

      const full = bucket('b', 1, 60_000);
      expect((await take('refused', full)).verdict).toMatchObject({ admitted: true });
      const refused = { claim: { key: `${prefix}:seen:refused`, signedByMs: Date.now() }, bucketsKey: `${prefix}:rl:refused`, buckets: [full] };
      expect(await store.admit(refused)).toMatchObject({ claim: 'new', verdict: { admitted: false } });
      expect(await store.admit(refused)).toEqual({ claim: 'seen', verdict: null });
    });

    it("claim only a timestamp fresh by Redis's clock, whatever the gateway process found: one outside is stale, neither claimed nor charged", async () => {
      const write = (name: string, signedByMs: number) =>
        store.admit({ claim: { key: `${prefix}:seen:${name}`, signedByMs }, bucketsKey: `${prefix}:rl:clock`, buckets: [bucket('b', 5, 60_000)] });
      // Redis runs on this machine: its clock is the test's.
      const now = Date.now();
      const stale = { claim: 'stale', verdict: null, redisNowMs: expect.any(Number) };
      const behind = await write('behind', now - MAX_SKEW_MS - 2_000);
      expect(behind).toEqual(stale);
      // Redis's clock, for the process to say how far its own is off.
      expect(Math.abs(behind.redisNowMs! - Date.now())).toBeLessThan(1_000);
      expect(await write('ahead', now + MAX_SKEW_MS + 3_000)).toEqual(stale);
      expect(await redis.exists(`${prefix}:seen:behind`, `${prefix}:seen:ahead`)).toBe(0);
      expect(await write('now', now)).toMatchObject({ claim: 'new', verdict: { remaining: 4 } });
      // A timestamp in seconds stands for its whole second: its last millisecond may be 999 ms past the window's end.
      expect(await write('second-at-the-edge', now + MAX_SKEW_MS + 999)).toMatchObject({ claim: 'new', verdict: { remaining: 3 } });
    });

    it('refuse settings under which a claim could expire while its timestamp is still fresh', () => {
      expect(() => new AdmissionStore(redis, { ttlSeconds: 60, maxSkewMs: 30_000 }, `${prefix}:since`)).toThrow(/outlive twice the freshness window/);
    });

    it("keep the first use's time of a repeatable claim when a failure is kept with it", async () => {
      // 1 s for three round trips to Redis, on a loaded machine.
      const repeatable = () => store.admit({ claim: { key: `${prefix}:seen:kept-repeat`, signedByMs: Date.now(), repeatableForMs: 1_000 }, bucketsKey: `${prefix}:none`, buckets: [] });
      expect((await repeatable()).claim).toBe('new');
      const firstUse = Date.now();
      await store.keepAnswer(`${prefix}:seen:kept-repeat`, { status: 503, body: '{}' });
      expect((await repeatable()).claim).toBe('repeat');
      await sleep(firstUse + 1_100 - Date.now());
      expect(await repeatable()).toEqual({ claim: 'seen', verdict: null, kept: { status: 503, body: '{}' } });
    });
  });

  describe('buckets', () => {
    it('admit a full bucket at once, then refuse until a token comes back', async () => {
      // A token every 2 s: the refusals below hold on a loaded machine (with 200 ms they did not always).
      const b = bucket('burst', 5, 10_000);
      const set = [b];
      const before = Date.now();
      const verdicts = (await Promise.all(Array.from({ length: 7 }, () => store.admit({ bucketsKey: `${prefix}:rl:burster`, buckets: set })))).map((a) => a.verdict!);
      expect(runs).toHaveBeenCalledTimes(1);
      // One bucket set for the seven requests: key count, the memory key and 7 keys, TTL, window, 1 set
      // (size 1: field, limit, window, per-item flag), 7 requests of (flag, set, signing time, items).
      expect(runs.mock.calls[0]).toHaveLength(1 + 1 + 7 + 3 + 5 + 1 + 28);
      expect(verdicts.map((v) => v.admitted)).toEqual([true, true, true, true, true, false, false]);
      expect(verdicts.map((v) => v.remaining)).toEqual([4, 3, 2, 1, 0, 0, 0]);
      expect(verdicts.every((v) => v.limit === 5)).toBe(true);
      // Full again a window after the burst; the next token in one interval (2 s), the same for both
      // refusals of the run (one Redis time).
      expect(verdicts[4]!.resetAtMs).toBeGreaterThanOrEqual(before + 10_000 - 50);
      expect(verdicts[4]!.resetAtMs).toBeLessThanOrEqual(Date.now() + 10_000 + 50);
      expect(verdicts[5]!.retryAfterMs).toBeGreaterThan(1_000);
      expect(verdicts[5]!.retryAfterMs).toBeLessThanOrEqual(2_000);
      expect(verdicts[6]!.retryAfterMs).toBe(verdicts[5]!.retryAfterMs);

      await sleep(verdicts[5]!.retryAfterMs + 20);
      const again = (await take('burster', b)).verdict!;
      expect(again).toMatchObject({ admitted: true, remaining: 0 });
      // That was the one token back: the next waits a whole interval again.
      const refusedAgain = (await take('burster', b)).verdict!;
      expect(refusedAgain.admitted).toBe(false);
      expect(refusedAgain.retryAfterMs).toBeGreaterThan(1_000);
    });

    it('charge a request to every bucket or to none, and report the most depleted one', async () => {
      const wide = bucket('wide', 100, 10_000);
      const narrow = bucket('narrow', 2, 10_000);
      expect((await take('pair', wide, narrow)).verdict).toMatchObject({ admitted: true, limit: 2, remaining: 1 });
      await take('pair', wide, narrow);
      const refused = (await take('pair', wide, narrow)).verdict!;
      expect(refused).toMatchObject({ admitted: false, limit: 2, remaining: 0 });
      expect(refused.retryAfterMs).toBeGreaterThan(4_000);
      // The refused request took nothing from the wide bucket: 98 left after two requests.
      expect((await take('pair', wide)).verdict).toMatchObject({ admitted: true, limit: 100, remaining: 97 });
    });

    it('take a token per item from per-item buckets and one per request from the others, and refuse a batch whole', async () => {
      const orders = bucket('orders', 20, 10_000, true);
      const surface = bucket('surface', 100, 10_000);
      const batch = (items: number) => store.admit({ bucketsKey: `${prefix}:rl:batcher`, buckets: [surface, orders], items });
      expect((await batch(15)).verdict).toMatchObject({ admitted: true, limit: 20, remaining: 5 });
      const refused = (await batch(15)).verdict!;
      expect(refused).toMatchObject({ admitted: false, limit: 20, remaining: 5 });
      // Ten more tokens are needed, one every 500 ms.
      expect(refused.retryAfterMs).toBeGreaterThan(4_000);
      expect(refused.retryAfterMs).toBeLessThanOrEqual(5_000);
      expect((await batch(5)).verdict).toMatchObject({ admitted: true, remaining: 0 });
      // Without items a request is one.
      expect((await store.admit({ bucketsKey: `${prefix}:rl:batcher`, buckets: [surface, orders] })).verdict).toMatchObject({ admitted: false });
      // Two requests admitted: two tokens of the surface's bucket.
      expect((await take('batcher', surface)).verdict).toMatchObject({ admitted: true, limit: 100, remaining: 97 });
    });

    it('count a batch larger than a per-item bucket as the whole bucket, so that it passes once the bucket is full', async () => {
      const tiny = bucket('tiny', 2, 10_000, true);
      const batch = () => store.admit({ bucketsKey: `${prefix}:rl:tiny`, buckets: [tiny], items: 15 });
      expect((await batch()).verdict).toMatchObject({ admitted: true, limit: 2, remaining: 0 });
      expect((await batch()).verdict).toMatchObject({ admitted: false });
    });

    it('keep a caller hash while a bucket is not full, moving its expiry a minute at a time; a stale bucket counts as full', async () => {
      const key = `${prefix}:rl:keeper`;
      // Absolute times (PEXPIRETIME), bounded by the local clock around each run: a TTL read afterwards
      // shrinks with however long the loaded machine took to ask.
      const before = Date.now();
      await take('keeper', bucket('long', 10, 5_000));
      const after = Date.now();
      const expires = Number(await redis.hget(key, '_exp'));
      expect(await expiresAt(key)).toBe(expires);
      // Full again one interval (500 ms) after the request, and a minute more.
      expect(expires).toBeGreaterThanOrEqual(before + 60_500);
      expect(expires).toBeLessThanOrEqual(after + 60_500 + 1);
      // Within that minute other requests leave the expiry where it is.
      await take('keeper', bucket('short', 10, 1_000));
      await sleep(150);
      // The short bucket's tat is in the past: full again, though its field is still stored.
      expect((await take('keeper', bucket('short', 10, 1_000))).verdict!.remaining).toBe(9);
      expect(Number(await redis.hget(key, '_exp'))).toBe(expires);
      expect(await expiresAt(key)).toBe(expires);
      // A bucket that will not be full within it moves it on: two minutes and one more.
      const slowBefore = Date.now();
      await take('keeper', bucket('slow', 1, 120_000));
      expect(await expiresAt(key)).toBeGreaterThanOrEqual(slowBefore + 180_000);
      expect(await expiresAt(key)).toBe(Number(await redis.hget(key, '_exp')));
    });

    it('fail every request of a run when Redis does', async () => {
      // Nothing listens on port 1; without an offline queue the command fails without waiting for a connection.
      const down = new Redis('redis://127.0.0.1:1', { lazyConnect: true, enableOfflineQueue: false });
      const unreachable = new AdmissionStore(down, CLAIMS, 'since');
      const results = await Promise.allSettled([
        unreachable.admit({ claim: { key: 'x', signedByMs: Date.now() }, bucketsKey: 'k', buckets: [] }),
        unreachable.admit({ bucketsKey: 'k', buckets: [bucket('b', 1, 1_000)] }),
      ]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
      down.disconnect();
    });

    it('fail at once while the connection is down, rather than wait for a reconnection', async () => {
      // As the gateway's own connection (offline queue on, retrying), to a Redis that is not there.
      const reconnecting = new Redis('redis://127.0.0.1:1', { maxRetriesPerRequest: 1, commandTimeout: 2_000, retryStrategy: () => 100 });
      reconnecting.on('error', () => undefined);
      try {
        const started = Date.now();
        await expect(new AdmissionStore(reconnecting, CLAIMS, 'start').admit({ bucketsKey: 'k', buckets: [bucket('b', 1, 1_000)] })).rejects.toThrow(/redis is/);
        // Before, each request of a Redis outage waited out the 2 s command timeout, /ok included (found by
        // a chaos probe): well under it, with room for a loaded machine.
        expect(Date.now() - started).toBeLessThan(1_000);
      } finally {
        reconnecting.disconnect();
      }
    });
  });

  describe('after Redis loses its data', () => {
    // A Redis of this test's own, to restart and flush: the machine's is shared.
    let server: PrivateRedis;
    let own: Redis;
    let ownStore: AdmissionStore;
    const write = (name: string, signedByMs: number) =>
      ownStore.admit({ claim: { key: `seen:${name}`, signedByMs }, bucketsKey: 'rl:trader', buckets: [bucket('b', 3, 10_000)] });

    beforeAll(async () => {
      server = await startPrivateRedis();
      own = new Redis({ port: server.port, host: '127.0.0.1', maxRetriesPerRequest: 1, retryStrategy: () => 50 });
      own.on('error', () => undefined);
      ownStore = new AdmissionStore(own, CLAIMS, 'since');
      // Ready, and the store has noted the fresh Redis's memory (it does when the connection is ready).
      await until(async () => ((await own.exists('since')) === 1 ? true : undefined), 10_000, 'the store notes the memory');
    });
    afterAll(async () => {
      own.disconnect();
      await server.close();
    });

    it('take a fresh Redis as whole from when the store reached it: the first write is new', async () => {
      expect(await write('first', Date.now())).toMatchObject({ claim: 'new' });
    });

    it('after a restart, refuse a write signed before the store reached it again, take nothing for it, and claim later ones as usual', async () => {
      const signedBy = Date.now();
      expect(await write('split', signedBy)).toMatchObject({ claim: 'new' });
      expect(await write('split', signedBy)).toMatchObject({ claim: 'seen' });

      await server.stop();
      await server.start();
      // The store's connection is back and has noted the memory afresh.
      await until(async () => ((await own.exists('since').catch(() => 0)) === 1 ? true : undefined), 10_000, 'the store reconnects');

      // Before the nineteenth session, the same write was new again and carried out a second time (found by a chaos probe).
      expect(await write('split', signedBy)).toEqual({ claim: 'before-memory', verdict: null });
      expect(await own.exists('seen:split')).toBe(0);
      // Signed after the loss was noticed: an ordinary claim, charged to a bucket Redis lost too.
      expect(await write('later', Date.now())).toMatchObject({ claim: 'new', verdict: { remaining: 2 } });
      expect(await write('later', Date.now())).toMatchObject({ claim: 'seen' });
    });

    it('after a FLUSHALL, the same: a write sent again is refused, not carried out twice', async () => {
      const signedBy = Date.now();
      expect(await write('merge', signedBy)).toMatchObject({ claim: 'new' });
      // The moment the memory is whole from stays while the data does: no expiry.
      expect(await own.ttl('since')).toBe(-1);
      await own.flushall();
      // Signed strictly before the run that finds the data gone.
      await sleep(5);

      // Until the twenty-first session a flush was not noticed (Redis had not restarted) and this was new again.
      expect(await write('merge', signedBy)).toEqual({ claim: 'before-memory', verdict: null });
      const signedAfter = Date.now();
      expect(await write('after-flush', signedAfter)).toMatchObject({ claim: 'new' });
      expect(await write('after-flush', signedAfter)).toMatchObject({ claim: 'seen' });
    });
  });
});
