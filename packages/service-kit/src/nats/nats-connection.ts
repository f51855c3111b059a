import { connect, type NatsConnection } from 'nats';
import { natsServerOptions } from './nats-servers';

/**
 * The least `max_payload` the exchange works with: the NATS server's default, 1 MiB. The engine cuts its
 * stream messages at 512 KiB (contracts' MAX_MESSAGE_BYTES) and JetStream takes each whole; requests and
 * replies go in parts of `max_payload` less 64 KiB (large-payloads.ts). Below it a probe saw the outbox
 * stop for good behind one 295 KB message, and at 64 KiB a sender cut parts of no bytes until it ran out
 * of memory.
 */
export const LEAST_MAX_PAYLOAD = 1024 * 1024;

/**
 * Connects a service to NATS for good (it reconnects however long the server is away) and refuses a
 * server whose `max_payload` is below LEAST_MAX_PAYLOAD, with the reason, instead of failing later on
 * the first large message.
 */
export async function connectNats(natsUrl: string, name: string): Promise<NatsConnection> {
  // No async stack traces: the client would build an Error for every request and JetStream publish (a
  // tenth of the gateway's CPU).
  const nc = await connect({ ...natsServerOptions(natsUrl), name, maxReconnectAttempts: -1, noAsyncTraces: true });
  const maxPayload = nc.info?.max_payload;
  if (maxPayload !== undefined && maxPayload < LEAST_MAX_PAYLOAD) {
    await nc.close();
    throw new Error(
      `the NATS server's max_payload is ${maxPayload} bytes; the exchange needs at least ${LEAST_MAX_PAYLOAD} (the server's default): raise it in the server's configuration`,
    );
  }
  return nc;
}
