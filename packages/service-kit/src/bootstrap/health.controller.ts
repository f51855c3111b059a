import { Controller, Get, HttpException, HttpStatus, Inject } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { NATS_CONNECTION } from '../nats/messaging.module';
import { HealthChecks } from './health-checks';

/**
 * Liveness and readiness for the orchestrator: ready while the NATS connection is open. A closed one is
 * a 503, so that a probe restarts the service (it answered 200 with `down`, which no probe reads). A
 * part kept from its work (`HealthChecks`: a full disk, a full JetStream) makes it `degraded`, still a
 * 200: a restart would not help, and the service still serves what it can; monitoring reads the body.
 */
@Controller()
export class HealthController {
  constructor(
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    private readonly checks: HealthChecks,
  ) {}

  @Get('healthz')
  health(): { status: 'ok' } | { status: 'degraded'; problems: Record<string, string> } {
    if (this.nc.isClosed()) throw new HttpException({ status: 'down' }, HttpStatus.SERVICE_UNAVAILABLE);
    const problems = this.checks.problems();
    return Object.keys(problems).length === 0 ? { status: 'ok' } : { status: 'degraded', problems };
  }
}
