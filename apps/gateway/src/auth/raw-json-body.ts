import type { FastifyInstance } from 'fastify';
import { holdsUnstorableText, UNSTORABLE_TEXT } from '@exchange/contracts';
import { ApiError } from '../http/api-error';
import { mayHoldUnstorableText } from '../http/storable-text';

declare module 'fastify' {
  interface FastifyRequest {
    /** The JSON body exactly as received: what an L2 signature covers. */
    rawBody?: string;
  }
}

/**
 * Parses a JSON body as Fastify does (prototype poisoning refused, invalid JSON an FST_ERR_CTP error: 400
 * invalid_json) and refuses text no service can store (400 invalid_request).
 */
export type JsonBodyParser = (text: string) => Promise<unknown>;

/** Fastify's JSON parser, with an empty body (what the upstream clients send on GET and DELETE) as no body. */
export function jsonBodyParser(fastify: FastifyInstance): JsonBodyParser {
  const parse = fastify.getDefaultJsonParser('error', 'ignore');
  return (text) =>
    text === ''
      ? Promise.resolve(undefined)
      : new Promise((resolve, reject) =>
          parse(undefined as never, text, (error, value) => {
            if (error) reject(error);
            else if (mayHoldUnstorableText(text) && holdsUnstorableText(value)) reject(ApiError.of('invalid_request', UNSTORABLE_TEXT));
            else resolve(value);
          }),
        );
}

const UNENCODED_ONLY = 'Content-Encoding is not supported: send the body uncompressed';

/**
 * Whether a request's body comes in a content coding (gzip, say): bodies are read as sent, so a gzip body
 * was a JSON error and one of an unknown coding read as plain text (found by fuzzing).
 */
export function encodedBody(contentEncoding: string | undefined): boolean {
  const coding = contentEncoding?.trim().toLowerCase();
  return !!coding && coding !== 'identity';
}

/**
 * Bodies are JSON only, parsed by a parser that keeps the raw text on `request.rawBody` (the L2 HMAC is
 * over the exact bytes sent) and otherwise behaves like Fastify's (`jsonBodyParser`). Every other parser
 * goes (Fastify's text/plain, Nest's form-urlencoded): their bodies had no rawBody, so the HMAC was
 * checked as if there were no body while the route acted on it (a signature for a body-less write took
 * any form body); they are now 400 "Content-Type must be application/json".
 */
export function parseJsonBodiesOnly(fastify: FastifyInstance): void {
  const parse = jsonBodyParser(fastify);
  fastify.removeAllContentTypeParsers();
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (encodedBody(request.headers['content-encoding'])) return done(ApiError.of('invalid_request', UNENCODED_ONLY), undefined);
    request.rawBody = body as string;
    parse(body as string).then(
      (value) => done(null, value),
      (error: Error) => done(error, undefined),
    );
  });
}
