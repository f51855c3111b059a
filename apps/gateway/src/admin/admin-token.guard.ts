import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error';
import { GATEWAY_ENV, type GatewayEnv } from '../config';

/** The operator API's credential: `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. */
export class AdminToken {
  private readonly expected: Buffer;

  constructor(token: string) {
    this.expected = Buffer.from(`Bearer ${token}`);
  }

  accepts(authorization: string | undefined): boolean {
    const given = Buffer.from(authorization ?? '');
    return given.length === this.expected.length && timingSafeEqual(given, this.expected);
  }

  /** The refusal of a request without it. */
  static refusal(): ApiError {
    return ApiError.of('unauthorized', 'Unauthorized: a valid admin bearer token is required');
  }
}

/** The operator API needs the admin token (also checked before the body is read: `operator-requests.ts`). */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly token: AdminToken;

  constructor(@Inject(GATEWAY_ENV) env: GatewayEnv) {
    this.token = new AdminToken(env.ADMIN_TOKEN);
  }

  canActivate(context: ExecutionContext): boolean {
    if (this.token.accepts(context.switchToHttp().getRequest<FastifyRequest>().headers.authorization)) return true;
    throw AdminToken.refusal();
  }
}
