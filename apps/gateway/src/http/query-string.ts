/** A parsed query string as Fastify hands it to a controller: a repeated key is an array. */
export type QueryString = Record<string, string | string[]>;
/** One parameter of it (`@Query('name')`): possibly an array, so only a contract schema or a check reads it. */
export type QueryParam = QueryString[string] | undefined;
