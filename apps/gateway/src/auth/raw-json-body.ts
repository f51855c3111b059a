import type { FastifyInstance } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body exactly as received: what an L2 signature covers. */
    rawBody?: string;
  }
}

/**
 * Replaces the JSON body parser with one that keeps the raw text on `request.rawBody` (the L2 HMAC is
 * over the exact bytes sent) and otherwise behaves like Fastify's: same prototype-poisoning rules,
 * invalid JSON refused with FST_ERR_CTP_INVALID_JSON_BODY (answered as 400 invalid_json). An empty body
 * with a JSON content type (what the upstream clients send on GET and DELETE) is no body.
 */
export function keepRawJsonBody(fastify: FastifyInstance): void {
  const parse = fastify.getDefaultJsonParser('error', 'ignore');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    request.rawBody = text;
    if (text === '') {
      done(null, undefined);
      return;
    }
    parse(request, text, done);
  });
}
