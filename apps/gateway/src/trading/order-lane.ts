import type { IncomingMessage } from 'node:http';
import type { L2Authenticator } from '../auth/l2-auth.guard';
import { encodedBody, type JsonBodyParser } from '../auth/raw-json-body';
import { ApiError } from '../http/api-error';
import { serveInLane, type AccessLog, type Lane } from '../http/lane';
import { pathOf } from '../http/path-of';
import type { OrdersService } from './orders.service';

/**
 * `POST /order` and `POST /orders`, the busiest writes, in front of Fastify: the same JSON parsing,
 * L2 authentication, rate limits and order handling as the Nest routes of OrdersController, which still answer
 * what this lane leaves to them (another content type or a content coding, a chunked body, a body over the limit).
 */
export function orderLane(
  orders: OrdersService,
  l2: L2Authenticator,
  parseJson: JsonBodyParser,
  bodyLimit: number,
  accessLog: AccessLog,
): Lane {
  return (request, response) => {
    if (request.method !== 'POST') return false;
    const url = request.url ?? '';
    const path = pathOf(url);
    if ((path !== '/order' && path !== '/orders') || !isJson(request.headers['content-type']) || encodedBody(request.headers['content-encoding'])) return false;
    const length = Number(request.headers['content-length']);
    if (!Number.isSafeInteger(length) || length > bodyLimit) return false;
    void serveInLane(request, response, accessLog, async () => {
      const party = l2.refuseFailing(request);
      let rawBody: string;
      let body: unknown;
      try {
        rawBody = await readBody(request);
        // Parsed before authenticating, as on Fastify's routes: malformed JSON is a 400 for anyone.
        body = await parseJson(rawBody);
      } catch (error) {
        l2.refusedUnauthenticated(party);
        throw error;
      }
      const { caller, headers, replayClaim, replayed } = await l2.authenticate({ raw: request, method: 'POST', url, headers: request.headers, rawBody, body }, path);
      if (replayed) throw replayed;
      let answer;
      try {
        answer = path === '/order' ? await orders.placeOne(caller, body) : { status: 200, body: await orders.placeMany(caller, body) };
      } catch (error) {
        if (error instanceof ApiError) await l2.keepFailure(replayClaim, error.failure.status, JSON.stringify(error.failure.body));
        throw error;
      }
      // Kept before the answer leaves, so that a client sending the same request again at once is answered the same.
      if (answer.status >= 400) await l2.keepFailure(replayClaim, answer.status, JSON.stringify(answer.body));
      return { ...answer, headers };
    });
    return true;
  };
}

/** `application/json`, with parameters or not, as Fastify's content-type parser matches it. */
function isJson(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
  return type === 'application/json';
}

/**
 * The body as text. A client that goes away before sending it all is a 400 in the access log: its
 * stream's error (`aborted`, ECONNRESET) read as the database's socket error, a 503 and a warning that
 * the database was unavailable (found by fuzzing).
 */
function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', () => reject(ApiError.of('invalid_request', 'the request body was not received whole')));
  });
}
