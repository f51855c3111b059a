import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { fail, ok, type Caller, type HeartbeatRequest, type Reply } from '@exchange/contracts';
import { connectionState, DistinctFailures, errorMessage, NATS_CONNECTION, untilDatabaseAvailable } from '@exchange/service-kit';
import { MATCHING_ENV, type MatchingEnv } from '../config';
import { EngineService } from '../engine-host/engine.service';
import { SteppedCancels } from '../engine-host/stepped-cancels';
import { OneAtATime } from '../journal/one-at-a-time';

/**
 * How often silent sessions are looked for: the engine's once-a-second tick cancelled up to a second past
 * the timeout (15.3-16 s, past upstream's 10 s + 5 s; found by a probe).
 */
const CHECK_EVERY_MS = 100;

interface Session {
  id: string;
  caller: Caller;
  lastBeat: number;
}

/**
 * Cancel on disconnect (UPSTREAM.md, ARCHITECTURE.md): once a key sent a heartbeat, it must keep sending
 * them; when none arrives for HEARTBEAT_TIMEOUT_SECONDS, all its account's open orders are cancelled and
 * the session ends. Beats are counted in memory; the sessions themselves are journaled when they start
 * and end, so that after a restart a client that died meanwhile still has its orders cancelled (its
 * clock starts again at the restart), and one that lives on beats on with the same id.
 */
@Injectable()
export class HeartbeatsService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(HeartbeatsService.name);
  private timer?: NodeJS.Timeout;
  private readonly sessions = new Map<string, Session>();
  /** Ends retried every check while the journal cannot write: one line per outage. */
  private readonly endFailures = new DistinctFailures((message) => this.logger.warn(message));
  /** Session writes in the order they were decided, so the journal ends with the sessions memory has. */
  private readonly writes = new OneAtATime();
  private readonly link: { readonly connected: boolean };
  /** Set while NATS was away: no beat could arrive, so no session is judged by that time. */
  private cutOff = false;

  constructor(
    private readonly engine: EngineService,
    private readonly cancels: SteppedCancels,
    @Inject(MATCHING_ENV) private readonly env: MatchingEnv,
    @Inject(NATS_CONNECTION) nc: NatsConnection,
  ) {
    this.link = connectionState(nc);
  }

  async onModuleInit(): Promise<void> {
    // After the engine's load (Nest starts a module's providers together): an engine waiting for another
    // to stop must neither read the other's sessions nor end any.
    await this.engine.loaded;
    const stored = await untilDatabaseAvailable(this.logger, 'loading heartbeat sessions', () =>
      this.engine.pool.query<{ api_key: string; address: string; id: string }>('SELECT api_key, address, id FROM heartbeat_sessions'),
    );
    const now = Date.now();
    for (const row of stored.rows) this.sessions.set(row.api_key, { id: row.id, caller: { apiKey: row.api_key, address: row.address }, lastBeat: now });
    this.timer = setInterval(() => this.endSilentSessions(Date.now()), CHECK_EVERY_MS);
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  /**
   * The exchange's own outage is not the client's silence: while the engine is cut off from NATS no beat
   * can reach it, so nothing ends, and once it is back every session has a whole timeout to beat again.
   * Until the nineteenth session a NATS restart longer than the timeout cancelled every market maker's
   * orders (found by a chaos probe).
   */
  private endSilentSessions(at: number): void {
    if (!this.link.connected) {
      this.cutOff = true;
      return;
    }
    if (this.cutOff) {
      this.cutOff = false;
      for (const session of this.sessions.values()) session.lastBeat = at;
      return;
    }
    for (const [apiKey, session] of this.sessions) {
      if (at - session.lastBeat < this.env.HEARTBEAT_TIMEOUT_SECONDS * 1000) continue;
      this.end(apiKey, session).then(
        () => this.endFailures.cleared(),
        (error: unknown) => this.endFailures.failed(`ending a heartbeat session failed, will retry: ${errorMessage(error)}`),
      );
    }
  }

  async beat(request: HeartbeatRequest): Promise<Reply<{ heartbeat_id: string }>> {
    const { apiKey } = request.caller;
    const session = this.sessions.get(apiKey);
    const id = request.legacy && session ? session.id : request.heartbeat_id;
    if (session && id !== '' && id !== session.id) {
      // "A wrong id returns 400 with the correct id" (UPSTREAM.md): in the text, and as a field a client can read.
      const wrong = fail('invalid_request', `Invalid heartbeat id; the current id is ${session.id}`);
      return { ...wrong, body: { ...wrong.body, heartbeat_id: session.id } };
    }
    // An id of a session that ended (its orders cancelled): the client must learn it, not beat on in a new one.
    if (!session && id) {
      return fail('invalid_request', 'Invalid heartbeat id; no session of this key is running (one that ended had its orders cancelled): send an empty heartbeat_id to start one');
    }
    if (session && id === session.id) {
      session.lastBeat = Date.now();
      return ok({ heartbeat_id: session.id });
    }
    const started: Session = { id: randomUUID(), caller: request.caller, lastBeat: Date.now() };
    this.sessions.set(apiKey, started);
    await this.journal(
      `INSERT INTO heartbeat_sessions (api_key, address, id) VALUES ($1, $2, $3)
       ON CONFLICT (api_key) DO UPDATE SET address = EXCLUDED.address, id = EXCLUDED.id, started_at = now()`,
      [apiKey, request.caller.address.toLowerCase(), started.id],
    );
    return ok({ heartbeat_id: started.id });
  }

  /** Ends the key's session without cancelling anything: the key was deleted, so nothing could beat it any more. */
  async endWithKey(request: { caller: Caller }): Promise<Reply<{ ended: boolean }>> {
    const { apiKey } = request.caller;
    const session = this.sessions.get(apiKey);
    if (!session) return ok({ ended: false });
    this.sessions.delete(apiKey);
    await this.journal('DELETE FROM heartbeat_sessions WHERE api_key = $1 AND id = $2', [apiKey, session.id]);
    return ok({ ended: true });
  }

  private async end(apiKey: string, session: Session): Promise<void> {
    this.sessions.delete(apiKey);
    try {
      await this.cancels.where(session.caller, () => true);
    } catch (error) {
      // Not cancelled (the journal could not write): the session stays, to be ended at a later check.
      if (!this.sessions.has(apiKey)) this.sessions.set(apiKey, session);
      throw error;
    }
    // By id: the key may have started a new session meanwhile.
    await this.journal('DELETE FROM heartbeat_sessions WHERE api_key = $1 AND id = $2', [apiKey, session.id]);
  }

  /** One write after the other: two sessions started at once on two connections could commit in either order. */
  private journal(text: string, values: unknown[]): Promise<unknown> {
    return this.writes.run(() => this.engine.fencedWrite((client) => client.query(text, values)));
  }
}
