import { NestFactory } from '@nestjs/core';
import { Pool } from 'pg';
import type { NatsConnection } from 'nats';
import { JsonLogger, NATS_CONNECTION } from '@exchange/service-kit';
import { eventually, sleep, startPrivateNats, TEST_NATS_URL, until, type PrivateNats } from '@exchange/testing';
import { loadMatchingEnv } from '../../src/config';
import { EngineService } from '../../src/engine-host/engine.service';
import { MatchingModule } from '../../src/matching.module';
import { anOrder, traderOf } from '../support/engine-fixture';
import { aMarketSnapshot, startMatching, type MatchingUnderTest } from '../support/matching-harness';

const CONDITION = `0x${'cd'.repeat(32)}`;
const YES = '501';
const alice = traderOf(1);
const aliceSecondKey = { ...alice, apiKey: 'key-1-second' };
const bob = traderOf(2);
const carol = traderOf(3);

/** Sessions end after this long without a beat: room for a beat's round trip on a loaded machine. */
const TIMEOUT_MS = 3_000;
/** How long beats go on in a test: longer than the timeout and a tick, so that without them the orders would have gone. */
const BEATING_MS = TIMEOUT_MS + 1_500;

describe('cancel on disconnect, on real PostgreSQL and NATS', () => {
  let om: MatchingUnderTest;

  beforeAll(async () => {
    om = await startMatching({ HEARTBEAT_TIMEOUT_SECONDS: String(TIMEOUT_MS / 1000) });
    await om.publishMarket(aMarketSnapshot(CONDITION, [YES, '502']));
    for (const trader of [alice, bob, carol, traderOf(5), traderOf(6)]) await om.data('matching.admin.deposit.v1', { address: trader.address, amount: '100' });
  });
  afterAll(() => om.stop());

  const rest = async (trader: typeof alice): Promise<string> => {
    const result = await om.place(trader, anOrder(trader, { token: YES, side: 'BUY', price: '0.20', size: '5' }));
    expect(result).toMatchObject({ success: true, status: 'live' });
    return result.orderID;
  };
  const live = (id: string) => om.engine().state.orders.has(id);
  const beat = (trader: typeof alice, heartbeat_id: string) => om.request('matching.heartbeat.v1', { caller: trader, heartbeat_id });
  /** Beats `send` every half second, each answered before the next, for `ms`; each answer must be `expected`. */
  const keepBeating = async (send: () => Promise<unknown>, expected: unknown, ms = BEATING_MS) => {
    for (const end = Date.now() + ms; Date.now() < end; ) {
      expect(await send()).toEqual(expected);
      await sleep(500);
    }
  };
  /** Waits until the orders' session ran out and they are gone; the engine's own cancels must conserve, in memory and in the journal. */
  const canceledOnDisconnect = async (ids: string[]) => {
    await eventually(() => ids.every((id) => !live(id)), `orders ${ids.join(', ')} canceled on disconnect`, TIMEOUT_MS + 10_000);
    await om.expectConserved();
  };

  it('keeps the account\'s orders while beats arrive, and cancels all of them, and only them, once they stop', async () => {
    const first = await rest(alice);
    const second = await rest(aliceSecondKey);
    const bobs = await rest(bob);
    const started = await beat(alice, '');
    expect(started).toMatchObject({ ok: true, data: { heartbeat_id: expect.any(String) } });
    const id = started.ok ? started.data.heartbeat_id : '';
    expect(await beat(alice, 'not-the-id')).toEqual({
      ok: false,
      status: 400,
      body: { error: `Invalid heartbeat id; the current id is ${id}`, code: 'invalid_request', heartbeat_id: id },
    });
    await keepBeating(() => beat(alice, id), { ok: true, data: { heartbeat_id: id } });
    expect([live(first), live(second)]).toEqual([true, true]);

    await canceledOnDisconnect([first, second]);
    expect(live(bobs)).toBe(true);
    // A beat of the ended session says so (it was answered 200 with a new session until the eighteenth
    // session, so a client that stalled never learnt that its orders were gone); an empty id starts anew.
    expect(await beat(alice, id)).toMatchObject({
      ok: false,
      status: 400,
      body: { error: 'Invalid heartbeat id; no session of this key is running (one that ended had its orders cancelled): send an empty heartbeat_id to start one' },
    });
    expect(await beat(alice, '')).toMatchObject({ ok: true, data: { heartbeat_id: expect.not.stringMatching(id) } });
  });

  it('journals the session memory keeps when a key starts several at once', async () => {
    const dave = traderOf(4);
    const answers = await Promise.all(Array.from({ length: 12 }, () => beat(dave, '')));
    const ids = answers.map((a) => (a.ok ? a.data.heartbeat_id : ''));
    expect(new Set(ids).size).toBe(12);
    // The session memory keeps is the one a wrong id is told about.
    const told = await beat(dave, 'not-the-id');
    const latest = told.ok ? '' : (told.body.heartbeat_id ?? '');
    expect(ids).toContain(latest);
    const pool = new Pool({ connectionString: om.databaseUrl });
    const rows = await pool.query<{ id: string }>('SELECT id FROM heartbeat_sessions WHERE api_key = $1', [dave.apiKey]);
    await pool.end();
    expect(rows.rows).toEqual([{ id: latest }]);
    expect(await beat(dave, latest)).toEqual({ ok: true, data: { heartbeat_id: latest } });
  });

  it("beats the key's session without its id for upstream's legacy route, starting one if none", async () => {
    const erin = traderOf(5);
    const legacy = () => om.request('matching.heartbeat.v1', { caller: erin, legacy: true });
    const started = await legacy();
    const id = started.ok ? started.data.heartbeat_id : '';
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await legacy()).toEqual({ ok: true, data: { heartbeat_id: id } });
    expect(await beat(erin, id)).toEqual({ ok: true, data: { heartbeat_id: id } });
    // Legacy beats keep the session going: the orders stay while they come, and go once they stop.
    const order = await rest(erin);
    await keepBeating(legacy, { ok: true, data: { heartbeat_id: id } });
    expect(live(order)).toBe(true);
    await canceledOnDisconnect([order]);
  });

  it("ends a deleted key's session without cancelling: nothing could beat it any more", async () => {
    const frank = traderOf(6);
    const order = await rest(frank);
    // A session that falls silent at the same moment: once its orders are gone, frank's session would have run out too.
    const control = traderOf(7);
    await om.data('matching.admin.deposit.v1', { address: control.address, amount: '100' });
    const controls = await rest(control);
    expect(await beat(frank, '')).toMatchObject({ ok: true });
    expect(await beat(control, '')).toMatchObject({ ok: true });
    expect(await om.request('matching.heartbeat.end.v1', { caller: frank })).toEqual({ ok: true, data: { ended: true } });
    expect(await om.request('matching.heartbeat.end.v1', { caller: frank })).toEqual({ ok: true, data: { ended: false } });
    // Frank's session, had it run on, would have run out no later (the same 100 ms check ends both, in
    // memory at once). Before, it did, and cancelled the account's orders.
    await canceledOnDisconnect([controls]);
    expect(live(order)).toBe(true);
    const pool = new Pool({ connectionString: om.databaseUrl });
    const rows = await pool.query('SELECT 1 FROM heartbeat_sessions WHERE api_key = $1', [frank.apiKey]);
    await pool.end();
    expect(rows.rowCount).toBe(0);
  });

  /**
   * A second order-matching on the serving one's database and NATS prefix, its modules initializing as at a
   * start: its engine waits for the journal's lock. Its NATS routes would start only once it is initialized
   * (bootstrapService), so no request reaches it meanwhile. `stop` ends its wait and answers why its start
   * gave up.
   */
  const startWaitingEngine = async () => {
    const env = loadMatchingEnv({
      DATABASE_URL: om.databaseUrl,
      NATS_URL: TEST_NATS_URL,
      NATS_PREFIX: om.prefix,
      LOG_LEVEL: 'warn',
      HEARTBEAT_TIMEOUT_SECONDS: String(TIMEOUT_MS / 1000),
    });
    const fatal: unknown[] = [];
    const matching = MatchingModule.forRoot(env, (error) => void fatal.push(error));
    // Nest hands out no context before its init is done (which waits for the lock): an extra provider,
    // made before the init, hands out the parts the test stops.
    let parts: { engine: EngineService; nc: NatsConnection } | undefined;
    const handOut = {
      provide: Symbol('waiting engine parts'),
      inject: [EngineService, NATS_CONNECTION],
      useFactory: (engine: EngineService, nc: NatsConnection) => (parts = { engine, nc }),
    };
    const started = NestFactory.createApplicationContext(
      { ...matching, providers: [...(matching.providers ?? []), handOut] },
      { logger: new JsonLogger('order-matching', env.LOG_LEVEL) },
    ).then(
      // Not expected (it holds the journal only once the serving engine stops): closed so nothing is left running.
      async (context) => {
        await context.close();
        return 'initialized';
      },
      (error: unknown) => error,
    );
    const { engine, nc } = await until(async () => parts, 10_000, 'the second engine created');
    let loaded = false;
    void engine.loaded.then(() => (loaded = true));
    return {
      fatal,
      loaded: () => loaded,
      /**
       * Not the context's close: Nest's close (and its SIGTERM handler) first waits for the init, which waits
       * for the lock. The engine's own shutdown ends the wait; then its NATS connection, the one thing left open.
       */
      async stop() {
        await engine.onApplicationShutdown();
        const outcome = await started;
        await nc.drain();
        return outcome;
      },
    };
  };
  const journalConnections = async () => {
    const pool = new Pool({ connectionString: om.databaseUrl, max: 1 });
    try {
      const rows = await pool.query("SELECT 1 FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'order-matching journal %'");
      return rows.rowCount;
    } finally {
      await pool.end();
    }
  };

  it('ends no session from a second engine waiting for the journal: it reads them only once it holds the journal', async () => {
    const gina = traderOf(8);
    await om.data('matching.admin.deposit.v1', { address: gina.address, amount: '100' });
    const order = await rest(gina);
    // Started before the second engine, so that one reading sessions early would find it, and then hear none of its beats.
    const started = await beat(gina, '');
    const id = started.ok ? started.data.heartbeat_id : '';
    expect(id).not.toBe('');

    const waiting = await startWaitingEngine();
    let gaveUp: unknown;
    try {
      await eventually(async () => (await journalConnections()) === 2, "the second engine waiting on the journal's lock");
      await keepBeating(() => beat(gina, id), { ok: true, data: { heartbeat_id: id } });
      expect(waiting.loaded()).toBe(false);
      // Reading its sessions before its load, the waiting engine would time this one out (no beat reaches
      // it) and, holding no epoch, be refused the session's end and call its fatal handler: an exit.
      expect(waiting.fatal).toEqual([]);
      expect(live(order)).toBe(true);
      const pool = new Pool({ connectionString: om.databaseUrl, max: 1 });
      const rows = await pool.query('SELECT id FROM heartbeat_sessions WHERE api_key = $1', [gina.apiKey]);
      await pool.end();
      expect(rows.rows).toEqual([{ id }]);
    } finally {
      // Asserted after: a failure here would hide the one that ended the block.
      gaveUp = await waiting.stop();
    }
    expect(gaveUp).toEqual(new Error('the journal session was ended while it waited for the journal'));
    expect(waiting.fatal).toEqual([]);
    // The serving engine still ends the session once its beats stop.
    await canceledOnDisconnect([order]);
  });

  it('survives a restart: a client that died meanwhile loses its orders, one that beats on keeps them', async () => {
    const bobs = await rest(bob);
    const carols = await rest(carol);
    const bobBeat = await beat(bob, '');
    const carolBeat = await beat(carol, '');
    const carolId = carolBeat.ok ? carolBeat.data.heartbeat_id : '';
    expect(bobBeat.ok && carolId).toBeTruthy();

    // Longer: the sessions' clocks start at the load, and the first beat must come within the timeout
    // of it, the rest of the start and its audit included, even on a loaded machine.
    await om.restart({ HEARTBEAT_TIMEOUT_SECONDS: '5' });
    // Carol beats on, each beat answered before the next, until bob's orders went for his silence.
    const carolBeats = { ok: true, data: { heartbeat_id: carolId } };
    await until(
      async () => {
        expect(await beat(carol, carolId)).toEqual(carolBeats);
        if (!live(bobs)) return true;
        await sleep(500);
        return undefined;
      },
      TIMEOUT_MS + 10_000,
      "bob's orders canceled after the restart",
    );
    await om.expectConserved();
    expect(live(carols)).toBe(true);
    expect(await beat(carol, carolId)).toEqual(carolBeats);
    await canceledOnDisconnect([carols]);
  });
});

describe('cancel on disconnect across an outage of NATS itself (a NATS server of its own)', () => {
  let nats: PrivateNats;
  let om: MatchingUnderTest;

  beforeAll(async () => {
    nats = await startPrivateNats({ jetstream: true });
    // 5 s: more than the engine's reconnection and then the test client's (attempts 2 s apart each) once
    // NATS is back, with room for a loaded machine (3 s left it about 1 s).
    om = await startMatching({ NATS_URL: nats.url, HEARTBEAT_TIMEOUT_SECONDS: '5' });
    await om.publishMarket(aMarketSnapshot(CONDITION, [YES, '502']));
    await om.data('matching.admin.deposit.v1', { address: alice.address, amount: '100' });
  });
  afterAll(async () => {
    await om?.stop();
    await nats?.close();
  });

  it("keeps a session's orders while no beat can reach the engine, then gives it a whole timeout", async () => {
    const order = (await om.place(alice, anOrder(alice, { token: YES, side: 'BUY', price: '0.20', size: '5' }))).orderID;
    const beat = (heartbeat_id: string) => om.request('matching.heartbeat.v1', { caller: alice, heartbeat_id });
    const started = await beat('');
    const id = started.ok ? started.data.heartbeat_id : '';
    expect(id).not.toBe('');

    await nats.stop();
    await sleep(6_500);
    // Before, the 5 s of silence cancelled the orders though nothing could have reached the engine.
    expect(om.engine().state.orders.has(order)).toBe(true);
    await nats.start();
    await until(async () => ((await beat(id)).ok ? true : undefined), 10_000);
    expect(om.engine().state.orders.has(order)).toBe(true);
    // Silent from now on, with the engine reachable: cancelled as before.
    await eventually(() => !om.engine().state.orders.has(order), 'the order canceled on disconnect');
    await om.expectConserved();
  });
});
