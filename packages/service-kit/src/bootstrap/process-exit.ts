/**
 * How a service ends itself when it cannot go on (a feed whose consumer or stream is gone): its `main`
 * exits with a failure status so that its supervisor (scripts/start.mjs, docker compose, Kubernetes)
 * starts it again; tests record the call instead.
 */
export const PROCESS_EXIT = Symbol('PROCESS_EXIT');
export type ProcessExit = () => void;
