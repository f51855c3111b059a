import { randomUUID } from 'node:crypto';
import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import { fail, ok, type HeartbeatRequest, type Reply } from '@exchange/contracts';
import { MATCHING_ENV, type MatchingEnv } from '../config';
import { cancelWhere } from '../engine/cancel-orders';
import { EngineService } from '../engine-host/engine.service';

interface Session {
  id: string;
  lastBeat: number;
}

/**
 * Cancel on disconnect (UPSTREAM.md): once a key sent a heartbeat, it must keep sending them; when
 * none arrives for HEARTBEAT_TIMEOUT_SECONDS, all its open orders are cancelled and the session ends.
 * Sessions live in memory: after a restart the exchange is in post-only mode and clients start anew.
 */
@Injectable()
export class HeartbeatsService implements OnModuleInit {
  private readonly sessions = new Map<string, Session>();

  constructor(
    private readonly engine: EngineService,
    @Inject(MATCHING_ENV) private readonly env: MatchingEnv,
  ) {}

  onModuleInit(): void {
    this.engine.onTick((now) => {
      for (const [apiKey, session] of this.sessions) {
        if (now - session.lastBeat < this.env.HEARTBEAT_TIMEOUT_SECONDS * 1000) continue;
        this.sessions.delete(apiKey);
        // Only the silent key's orders: another key of the address may run a session of its own.
        void this.engine.run((state, at) => cancelWhere(state, state.byOwner.of(apiKey), () => true, at));
      }
    });
  }

  beat(request: HeartbeatRequest): Reply<{ heartbeat_id: string }> {
    const { apiKey } = request.caller;
    const session = this.sessions.get(apiKey);
    if (session && request.heartbeat_id !== '' && request.heartbeat_id !== session.id) {
      return fail('invalid_request', `Invalid heartbeat id; the current id is ${session.id}`);
    }
    const next = session && request.heartbeat_id === session.id ? session : { id: randomUUID(), lastBeat: 0 };
    next.lastBeat = Date.now();
    this.sessions.set(apiKey, next);
    return ok({ heartbeat_id: next.id });
  }
}
