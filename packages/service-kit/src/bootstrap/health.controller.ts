import { Controller, Get, HttpException, HttpStatus, Inject } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { NATS_CONNECTION } from '../nats/messaging.module';

/**
 * Liveness and readiness for the orchestrator: ready while the NATS connection is open. A closed one is
 * a 503, so that a probe restarts the service (it answered 200 with `down`, which no probe reads).
 */
@Controller()
export class HealthController {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  @Get('healthz')
  health() {
    if (this.nc.isClosed()) throw new HttpException({ status: 'down' }, HttpStatus.SERVICE_UNAVAILABLE);
    return { status: 'ok' };
  }
}
