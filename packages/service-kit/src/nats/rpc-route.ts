import { Logger } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import {
  describeIssues,
  fail,
  rpcContract,
  type Reply,
  type RpcRequest,
  type RpcResponse,
  type RpcSubject,
} from '@exchange/contracts';

type Handler<S extends RpcSubject> = (request: RpcRequest<S>) => Promise<Reply<RpcResponse<S>>>;

import { databaseUnavailable, isDatabaseUnavailable } from '../database/unavailable';
import { errorMessage } from '../logging/error-message';
import { ThrottledLog } from '../logging/throttled-log';
import { nothingDone, NothingDoneError } from './nothing-done';
import { OutcomeUnknownError, outcomeUnknown } from './outcome-unknown';

const logger = new Logger('RpcRoute');
/** One line for an outage, then one at most every 30 s: a line per request made 154 in 1.3 s (a probe restarting PostgreSQL). */
const unavailableLog = new ThrottledLog();

/**
 * Binds a controller method to a contract subject: the payload is validated against the contract's
 * schema on receipt (400 on failure), a database that cannot be reached or a request refused with nothing
 * done becomes a 503 to retry, a write whose outcome is unknown a 503 saying so, and any other exception a
 * logged 500 reply instead of a transport error, so the gateway always receives a Reply.
 */
export function RpcRoute<S extends RpcSubject>(subject: S) {
  return (target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<Handler<S>>) => {
    const original = descriptor.value!;
    const schema = rpcContract[subject].request;
    descriptor.value = async function (this: unknown, payload: unknown) {
      const parsed = schema.safeParse(payload);
      if (!parsed.success) return fail('invalid_request', describeIssues(parsed.error));
      try {
        const reply = await original.call(this, parsed.data as RpcRequest<S>);
        unavailableLog.ended();
        return reply;
      } catch (error) {
        if (error instanceof OutcomeUnknownError) {
          logger.warn(`${subject}: ${error.message} (${errorMessage(error.cause)})`);
          return outcomeUnknown(subject, error.message);
        }
        if (error instanceof NothingDoneError) return nothingDone(error.message);
        if (isDatabaseUnavailable(error)) {
          unavailableLog.occurred((since) =>
            logger.warn(`${subject}: the database is unavailable (${errorMessage(error)})${since > 1 ? `; ${since} requests so answered since the last line` : ''}`),
          );
          return databaseUnavailable();
        }
        logger.error(error instanceof Error ? error : String(error), `${subject} failed`);
        return fail('internal_error', 'internal error');
      }
    } as Handler<S>;
    MessagePattern(subject)(target, key, descriptor);
  };
}
