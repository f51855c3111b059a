import { randomUUID } from 'node:crypto';
import { headers as natsHeaders, JSONCodec, type NatsConnection, type NatsError } from 'nats';
import {
  fail,
  READ_ONLY_SUBJECTS,
  RPC_HEADERS,
  type Failure,
  type Reply,
  type RpcRequestInput,
  type RpcResponse,
  type RpcSubject,
} from '@exchange/contracts';
import { errorMessage } from '../logging/error-message';
import { currentRequestId } from '../logging/request-context';
import { connectionState } from './connection-state';
import { LargePayloads, PartsUnavailableError } from './large-payloads';
import { outcomeUnknown } from './outcome-unknown';
import { prefixed } from './subjects';

const codec = JSONCodec();
const NO_RESPONDER = 'no service is answering';
const NOT_CONNECTED = 'not connected to the message bus (NATS)';
const SCHEMA_VERSION = '1';

/** Whether a failure says that no process serves the subject at all (down or restarting), not that it was slow. */
export function answeredByNobody(failure: Failure): boolean {
  return failure.body.code === 'service_unavailable' && failure.body.error.startsWith(NO_RESPONDER);
}

interface NestResponsePacket<T> {
  response?: T;
  err?: unknown;
}

/**
 * Typed request/reply over NATS, speaking the wire format of the Nest NATS transport. It uses the
 * connection's shared reply inbox (one subscription for all requests), and NATS's no-responders
 * signal, so that a missing service is reported at once instead of after the timeout. Requests and
 * replies larger than one NATS message travel in parts (`LargePayloads`).
 */
export class RpcClient {
  private readonly state: { readonly connected: boolean };

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    private readonly timeoutMs: number,
  ) {
    this.state = connectionState(nc);
  }

  async request<S extends RpcSubject>(subject: S, payload: RpcRequestInput<S>): Promise<Reply<RpcResponse<S>>> {
    // Not sent while disconnected: nats.js would hold it until the reconnection and the caller would wait
    // out the timeout, told that the service might have acted (found by a chaos probe: 802 orders so
    // answered during a NATS restart, none of them placed).
    if (!this.state.connected) return fail('service_unavailable', `${NOT_CONNECTED}: nothing was sent; retry shortly`, 1);
    const headers = natsHeaders();
    headers.set(RPC_HEADERS.requestId, currentRequestId() ?? randomUUID());
    headers.set(RPC_HEADERS.schemaVersion, SCHEMA_VERSION);
    const packet = { pattern: subject, data: payload, id: randomUUID() };
    const payloads = LargePayloads.of(this.nc, this.prefix);
    try {
      const outgoing = payloads.outgoing(codec.encode(packet), headers);
      const msg = await this.nc.request(prefixed(this.prefix, subject), outgoing.data, { timeout: this.timeoutMs, headers: outgoing.headers });
      // The reply came, its parts did not (held by a service that died since, say): the service acted.
      const data = await payloads.payloadOf(msg, this.timeoutMs).catch((error: unknown) => {
        throw new PartsUnavailableError(errorMessage(error));
      });
      const decoded = codec.decode(data) as NestResponsePacket<Reply<RpcResponse<S>>>;
      if (decoded.err !== undefined || decoded.response === undefined) {
        return fail('internal_error', 'the service could not answer the request');
      }
      return decoded.response;
    } catch (error) {
      const code = (error as NatsError).code;
      if (code === '503') return fail('service_unavailable', `${NO_RESPONDER} ${subject}: nothing was done; retry shortly`, 1);
      const why = error instanceof PartsUnavailableError ? `answered, but ${error.message}` : code === 'TIMEOUT' ? 'timed out' : undefined;
      if (why === undefined) throw error;
      // A read changed nothing: until the thirty-third session it too was told to check (found by a probe).
      if (READ_ONLY_SUBJECTS.has(subject)) return fail('service_unavailable', `${subject} ${why}: it changes nothing; retry shortly`, 1);
      // Sent, so it may have been carried out: a client retrying a write blindly could make it twice (a
      // chaos probe: three of six events whose creation timed out existed). Placements say more (gateway).
      return outcomeUnknown(subject, why);
    }
  }
}
