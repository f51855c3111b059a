import { expireOrders } from './cancel-orders';
import type { EngineState } from './engine-state';

/**
 * Runs one engine command at `now` (ms), after ending the GTD orders due by then: the once-a-second
 * sweep alone let an order trade for up to a second past its end.
 */
export function runAt<T>(state: EngineState, now: number, command: (state: EngineState, now: number) => T): T {
  expireOrders(state, now);
  return command(state, now);
}
