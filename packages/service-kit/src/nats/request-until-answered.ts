import { setTimeout as sleep } from 'node:timers/promises';
import type { Logger } from '@nestjs/common';
import type { RpcRequestInput, RpcResponse, RpcSubject } from '@exchange/contracts';
import { backoffMs } from '../retry/backoff';
import type { RpcClient } from './rpc-client';

/** Refusals in a row before each warning: a service that starts before the one it asks stays quiet. */
const WARN_EVERY = 10;

/**
 * Asks until the service answers, retrying with backoff (200 ms doubling to 5 s): for what a service
 * must learn from another that may not be running yet. Undefined once `signal` aborts (shutdown), which
 * also ends a pause at once.
 */
export async function requestUntilAnswered<S extends RpcSubject>(
  rpc: RpcClient,
  subject: S,
  payload: RpcRequestInput<S>,
  signal: AbortSignal,
  logger: Logger,
): Promise<RpcResponse<S> | undefined> {
  for (let attempt = 1; !signal.aborted; attempt++) {
    const reply = await rpc.request(subject, payload);
    if (reply.ok) return reply.data;
    if (attempt % WARN_EVERY === 0) logger.warn(`${subject} not answered ${attempt} times (${reply.body.error}); retrying`);
    await sleep(backoffMs(attempt - 1, 200), undefined, { signal }).catch(() => undefined);
  }
  return undefined;
}
