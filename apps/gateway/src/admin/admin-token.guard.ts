import { timingSafeEqual } from 'node:crypto';
import { Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error';
import { GATEWAY_ENV, type GatewayEnv } from '../config';

/** The operator API needs `Authorization: Bearer <ADMIN_TOKEN>`, compared in constant time. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(GATEWAY_ENV) env: GatewayEnv) {
    this.expected = Buffer.from(`Bearer ${env.ADMIN_TOKEN}`);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const given = Buffer.from(header);
    if (given.length === this.expected.length && timingSafeEqual(given, this.expected)) return true;
    throw ApiError.of('unauthorized', 'Unauthorized: a valid admin bearer token is required');
  }
}
