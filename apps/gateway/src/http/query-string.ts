/** A parsed query string as Fastify hands it to a controller: a repeated key is an array. */
export type QueryString = Record<string, string | string[]>;
