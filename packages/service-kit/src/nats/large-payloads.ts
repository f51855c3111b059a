import { headers as natsHeaders, nuid, type MsgHdrs, type NatsConnection, type Subscription } from 'nats';

/** Header of a message whose payload travels in parts instead: `<subject> <id> <parts>`. */
export const PARTS_HEADER = 'x-parts';
/** Header of the answer to a request for a part that is not held (any more). */
const MISSING_HEADER = 'x-parts-missing';
/** How long parked parts wait to be fetched. */
const KEEP_MS = 30_000;
/** Room left in each message for headers and the protocol line. */
const HEADROOM_BYTES = 64 * 1024;
/** The NATS server's default `max_payload`, for a connection that has not heard the server's yet. */
const DEFAULT_MAX_PAYLOAD = 1024 * 1024;
const EMPTY = new Uint8Array(0);
const text = new TextEncoder();
const untext = new TextDecoder();

/** Parts that cannot be fetched: a malformed header, or parts no longer held (not fetched in time). */
export class PartsUnavailableError extends Error {}

/**
 * Payloads larger than one NATS message (the server's `max_payload`, 1 MiB by default), both requests
 * and replies: the sender parks the payload, cut into parts, and sends an empty message whose
 * `x-parts` header names a subject of its own process; the receiver fetches the parts from there, one
 * request each, and joins them. The subject is the sender's own (not a queue group), so the parts come
 * from the process that holds them whichever replica received the message. Parts not fetched within
 * 30 s are dropped. Without this, an answer or a request over the limit threw in the publisher: a reply
 * crashed the answering service, a request failed every order of its batch (docs/architecture.md,
 * "Large messages").
 */
export class LargePayloads {
  private static readonly byConnection = new WeakMap<NatsConnection, LargePayloads>();
  private readonly parked = new Map<string, Uint8Array[]>();
  private readonly subject: string;
  private subscription: Subscription | undefined;

  private constructor(
    private readonly nc: NatsConnection,
    prefix: string,
  ) {
    this.subject = `${prefix}.rpc.parts.${nuid.next()}`;
  }

  /** One per connection: its subscription serves every payload the connection parked. */
  static of(nc: NatsConnection, prefix: string): LargePayloads {
    let payloads = LargePayloads.byConnection.get(nc);
    if (payloads === undefined) {
      payloads = new LargePayloads(nc, prefix);
      LargePayloads.byConnection.set(nc, payloads);
    }
    return payloads;
  }

  /**
   * The most one message carries; a larger payload goes in parts of this size. At least half the server's
   * `max_payload`: a server that allowed 64 KiB or less (services refuse one at start, connectNats, but a
   * reconnection may reach another) made parts of no bytes, cut until the process ran out of memory.
   */
  get partBytes(): number {
    const maxPayload = this.nc.info?.max_payload ?? DEFAULT_MAX_PAYLOAD;
    return Math.max(maxPayload - HEADROOM_BYTES, Math.ceil(maxPayload / 2));
  }

  /** A message's payload and headers as they are sent: the payload itself, or nothing and a parts header. */
  outgoing(payload: Uint8Array, headers?: MsgHdrs): { data: Uint8Array; headers?: MsgHdrs } {
    if (payload.length <= this.partBytes) return { data: payload, headers };
    const withParts = headers ?? natsHeaders();
    withParts.set(PARTS_HEADER, this.park(payload));
    return { data: EMPTY, headers: withParts };
  }

  /** A received message's payload: its data, or the parts its header names, fetched and joined. */
  async payloadOf(message: { data: Uint8Array; headers?: MsgHdrs }, timeoutMs: number): Promise<Uint8Array> {
    const ticket = message.headers?.get(PARTS_HEADER);
    if (!ticket) return message.data;
    const [subject, id, count] = ticket.split(' ');
    const parts = Number(count);
    if (!subject || !id || !Number.isSafeInteger(parts) || parts < 1) throw new PartsUnavailableError(`malformed ${PARTS_HEADER} header`);
    const received: Uint8Array[] = [];
    for (let index = 0; index < parts; index++) {
      const part = await this.nc.request(subject, text.encode(`${id} ${index}`), { timeout: timeoutMs });
      if (part.headers?.has(MISSING_HEADER)) throw new PartsUnavailableError(`part ${index} of ${id} is no longer held`);
      received.push(part.data);
    }
    return Buffer.concat(received);
  }

  private park(payload: Uint8Array): string {
    this.listen();
    const id = nuid.next();
    const size = this.partBytes;
    const parts: Uint8Array[] = [];
    for (let at = 0; at < payload.length; at += size) parts.push(payload.subarray(at, at + size));
    this.parked.set(id, parts);
    setTimeout(() => this.parked.delete(id), KEEP_MS).unref();
    return `${this.subject} ${id} ${parts.length}`;
  }

  /** Subscribed on first use; the subscription goes out before the message naming it, so it is in place. */
  private listen(): void {
    this.subscription ??= this.nc.subscribe(this.subject, {
      callback: (error, request) => {
        if (error) return;
        const [id = '', index = ''] = untext.decode(request.data).split(' ');
        const parts = this.parked.get(id);
        const part = parts?.[Number(index)];
        if (parts === undefined || part === undefined) {
          const missing = natsHeaders();
          missing.set(MISSING_HEADER, '1');
          request.respond(EMPTY, { headers: missing });
          return;
        }
        request.respond(part);
        if (Number(index) === parts.length - 1) this.parked.delete(id);
      },
    });
  }
}
