import { Injectable } from '@nestjs/common';

/** What keeps a part of a service from its work ("cannot write: ..."), or undefined while it works. */
export type HealthCheck = () => string | undefined;

/**
 * The parts of a service that can be kept from their work while the process is up and connected: a
 * journal that cannot write, an outbox that cannot publish. `/healthz` names them (HealthController).
 * Until the twenty-fifth session it said ok through both: a resource probe saw `/book` stale for a
 * minute behind a full JetStream while every health check answered ok.
 */
@Injectable()
export class HealthChecks {
  private readonly checks = new Map<string, HealthCheck>();

  add(name: string, check: HealthCheck): void {
    this.checks.set(name, check);
  }

  /** The problems of the parts that have one, by name. */
  problems(): Record<string, string> {
    const found: Record<string, string> = {};
    for (const [name, check] of this.checks) {
      const problem = check();
      if (problem !== undefined) found[name] = problem;
    }
    return found;
  }
}
