import type { FastifyInstance } from 'fastify';
import { sendFailure } from '../http/error-body.filter';
import { AdminToken } from './admin-token.guard';

const OPERATOR_API = '/admin/';

/**
 * The operator API's bodies may be as large as `ADMIN_BODY_LIMIT` (imports of upstream catalog files),
 * every other route's only as `BODY_LIMIT`: before, every route read 20 MiB bodies, and forty 9 MB
 * `/orders` bodies at once took the gateway to 1.2 GB (found by fuzzing). Set on each route as Nest
 * adds it, so this runs before the app's init.
 */
export function operatorBodyLimit(fastify: FastifyInstance, limit: number): void {
  fastify.addHook('onRoute', (route) => {
    if (route.url.startsWith(OPERATOR_API)) route.bodyLimit = limit;
  });
}

/**
 * A request to the operator API without the admin token is refused before its large body is read. Decided
 * on the route the router matched, not on the path as sent: `/%61dmin/import` or an absolute-form target
 * reach the same routes, and before they were read in full (20 MiB each) before the guard refused them
 * (found by a security probe).
 */
export function refuseOperatorRequestsWithoutToken(fastify: FastifyInstance, token: AdminToken): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const route = request.routeOptions.url;
    if (route === undefined || !route.startsWith(OPERATOR_API) || token.accepts(request.headers.authorization)) return done();
    sendFailure(reply, AdminToken.refusal().failure);
  });
}
