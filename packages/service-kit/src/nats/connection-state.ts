import type { NatsConnection } from 'nats';

/** Whether a NATS connection is up, from its status events (nats.js has no such property). */
class ConnectionState {
  connected = true;

  constructor(nc: NatsConnection) {
    void this.watch(nc);
  }

  private async watch(nc: NatsConnection): Promise<void> {
    for await (const status of nc.status()) {
      if (status.type === 'disconnect') this.connected = false;
      else if (status.type === 'reconnect') this.connected = true;
    }
  }
}

const states = new WeakMap<NatsConnection, ConnectionState>();

/** The state of `nc`, watched from the first call on (call it once the connection is made). */
export function connectionState(nc: NatsConnection): { readonly connected: boolean } {
  let state = states.get(nc);
  if (state === undefined) states.set(nc, (state = new ConnectionState(nc)));
  return state;
}
