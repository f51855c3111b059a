import type { NatsConnection } from 'nats';

/**
 * Calls `exit` when `nc` closes other than by its owner (`closing()` false): reconnection never gives up,
 * so that is a fatal error, such as nats.js giving up after the server refused its credentials twice
 * (a password changed before the process was restarted). A process that can reach no service must not
 * look alive: it exits, and its supervisor starts it again.
 */
export function exitWhenClosedForGood(nc: NatsConnection, what: string, closing: () => boolean, log: (message: string) => void, exit: () => void): void {
  void nc.closed().then((error) => {
    if (closing()) return;
    log(`${what} closed for good (${String(error ?? 'no error')}); exiting`);
    exit();
  });
}
