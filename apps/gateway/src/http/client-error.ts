import { randomUUID } from 'node:crypto';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ErrorBody } from '@exchange/contracts';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers over the limit, a malformed
 * request line, both Content-Length and Transfer-Encoding, a request not received in time) are answered
 * on the socket with the error body of SPEC.md; Fastify's default answer had no `code`. A new request id
 * too, as every answer has one (the request's own headers were not read).
 */
export function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  if (!socket.writable) return void socket.destroy();
  const [status, reason] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request Header Fields Too Large']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request Timeout']
        : [400, 'Bad Request'];
  answerOnSocket(socket, status, reason, { error: reason, code: 'invalid_request' }, randomUUID());
}

/** An answer written on the socket itself, which is closed after it (no HTTP response object exists there). */
export function answerOnSocket(socket: Duplex, status: number, reason: string, body: ErrorBody, requestId: string): void {
  const text = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(text)}\r\nX-Request-Id: ${requestId}\r\nConnection: close\r\n\r\n${text}`,
  );
}
