import type { IncomingMessage, ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import type { Duplex } from 'node:stream';
import { ApiError } from './api-error';
import { answerOnSocket } from './client-error';
import { requestIdOf } from './fastify-setup';
import { elapsedMs, serveInLane, type AccessLog, type Lane } from './lane';

/**
 * Two requests Node's HTTP server answers by itself, before any handler, with an empty body and no
 * access log line: an HTTP/1.1 request without a Host header (400) and an `Expect` other than
 * `100-continue` (417). The gateway's servers turn both checks over to these (`requireHostHeader:
 * false`, a `checkExpectation` listener), which answer as a lane does: the error body, the request id,
 * an access log line.
 */
export function missingHostLane(accessLog: AccessLog): Lane {
  return (request, response) => {
    if (request.headers.host !== undefined || request.httpVersionMajor !== 1 || request.httpVersionMinor !== 1) return false;
    refuse(request, response, accessLog, ApiError.of('invalid_request', 'an HTTP/1.1 request needs a Host header'));
    return true;
  };
}

/** The server's `checkExpectation` listener. */
export function refuseExpectation(accessLog: AccessLog): (request: IncomingMessage, response: ServerResponse) => void {
  const failure = (expect: string | undefined) =>
    new ApiError({ ok: false, status: 417, body: { error: `Expect: ${expect} cannot be met; only 100-continue is`, code: 'invalid_request' } });
  return (request, response) => refuse(request, response, accessLog, failure(request.headers.expect));
}

/**
 * The server's `connect` listener. Without one Node closes the socket of a `CONNECT` request without a
 * word (a probe); the gateway is no proxy, so it is a 404 as for any method without a route, with the
 * error body, the request id and an access log line, and the connection closed after it.
 */
export function refuseConnect(accessLog: AccessLog): (request: IncomingMessage, socket: Duplex) => void {
  return (request, socket) => {
    const started = performance.now();
    if (!socket.writable) return void socket.destroy();
    answerOnSocket(socket, 404, 'Not Found', { error: 'no such route', code: 'route_not_found' }, requestIdOf(request.headers['x-request-id']));
    accessLog({ method: request.method!, url: request.url!, status: 404, ms: elapsedMs(started) });
  };
}

function refuse(request: IncomingMessage, response: ServerResponse, accessLog: AccessLog, error: ApiError): void {
  void serveInLane(request, response, accessLog, () => Promise.reject(error));
}
