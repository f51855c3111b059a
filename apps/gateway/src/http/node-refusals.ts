import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError } from './api-error';
import { serveInLane, type AccessLog, type Lane } from './lane';

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

function refuse(request: IncomingMessage, response: ServerResponse, accessLog: AccessLog, error: ApiError): void {
  void serveInLane(request, response, accessLog, () => Promise.reject(error));
}
