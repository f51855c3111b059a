import { Controller, Get, Inject } from '@nestjs/common';
import type { NatsConnection } from 'nats';
import { NATS_CONNECTION } from '../nats/messaging.module';

/** Liveness and readiness for the orchestrator: ready while the NATS connection is open. */
@Controller()
export class HealthController {
  constructor(@Inject(NATS_CONNECTION) private readonly nc: NatsConnection) {}

  @Get('healthz')
  health() {
    return { status: this.nc.isClosed() ? 'down' : 'ok' };
  }
}
