import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { fail, type Failure } from '@exchange/contracts';
import { databaseUnavailable, isDatabaseUnavailable } from '@exchange/service-kit';
import { ApiError } from './api-error';

const logger = new Logger('Errors');

/** Maps anything thrown while serving a request to a status and the error body of SPEC.md. */
export function toFailure(exception: unknown): Failure {
  if (exception instanceof ApiError) return exception.failure;
  // decodeURIComponent of a path or query the client encoded badly (`%ZZ`).
  if (exception instanceof URIError) return fail('invalid_request', 'malformed path');
  if (exception instanceof HttpException) {
    const status = exception.getStatus();
    if (status === 404) return fail('route_not_found', 'no such route');
    if (status === 401) return fail('unauthorized', 'Unauthorized');
    if (status === 413) return fail('payload_too_large', 'request body too large');
    if (status < 500) return fail('invalid_request', exception.message);
  }
  // Errors raised by Fastify itself before a handler runs: malformed JSON, wrong content type, size.
  const fastifyError = exception as { statusCode?: number; code?: string; message?: string };
  if (typeof fastifyError.statusCode === 'number' && fastifyError.statusCode < 500) {
    if (fastifyError.statusCode === 413) return fail('payload_too_large', 'request body too large');
    if (fastifyError.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return fail('invalid_request', 'Content-Type must be application/json');
    }
    if (fastifyError.code?.startsWith('FST_ERR_CTP')) return fail('invalid_json', 'request body is not valid JSON');
    return fail('invalid_request', fastifyError.message ?? 'bad request');
  }
  // The gateway's own database (API keys): down is a 503 to retry, not a fault.
  if (isDatabaseUnavailable(exception)) {
    logger.warn(`the database is unavailable: ${exception instanceof Error ? exception.message : String(exception)}`);
    return databaseUnavailable();
  }
  logger.error(exception instanceof Error ? exception : String(exception), 'unhandled error');
  return fail('internal_error', 'internal error');
}

/** Headers an error brings to its response (the rate limit's state on a 429). */
export function headersOf(exception: unknown): Record<string, string> {
  return exception instanceof ApiError ? exception.headers : {};
}

export function sendFailure(reply: FastifyReply, failure: Failure, headers: Record<string, string> = {}): void {
  void reply.headers(headers);
  if (failure.body.retry_after_seconds !== undefined) reply.header('Retry-After', String(failure.body.retry_after_seconds));
  void reply.status(failure.status).send(failure.body);
}

@Catch()
export class ErrorBodyFilter implements ExceptionFilter {
  catch(exception: unknown, host: ArgumentsHost): void {
    sendFailure(host.switchToHttp().getResponse<FastifyReply>(), toFailure(exception), headersOf(exception));
  }
}
