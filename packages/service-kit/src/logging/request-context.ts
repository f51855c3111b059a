import { AsyncLocalStorage } from 'node:async_hooks';

interface RequestScope {
  requestId: string;
}

/** Carries the request id of the request being served through every await, into every log line. */
export const requestContext = new AsyncLocalStorage<RequestScope>();

export function currentRequestId(): string | undefined {
  return requestContext.getStore()?.requestId;
}
