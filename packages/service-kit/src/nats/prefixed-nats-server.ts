import { randomUUID } from 'node:crypto';
import { ServerNats, type NatsContext } from '@nestjs/microservices';
import { JSONCodec, type Msg, type NatsConnection, type PublishOptions } from 'nats';
import { RPC_HEADERS } from '@exchange/contracts';
import { errorMessage } from '../logging/error-message';
import { requestContext } from '../logging/request-context';
import { LargePayloads, PARTS_HEADER } from './large-payloads';
import { exitWhenClosedForGood } from './closed-for-good';
import { natsServerOptions } from './nats-servers';
import { prefixed } from './subjects';

/** How long fetching a request's parts may take, each. */
const PART_TIMEOUT_MS = 5_000;
const codec = JSONCodec();

interface Options {
  /** `NATS_URL`'s form: servers and credentials (nats-servers.ts). */
  natsUrl: string;
  prefix: string;
  /** Queue group: replicas of one service share the requests instead of all answering them. */
  queue: string;
  /** Pause between reconnection attempts (nats.js' default, 2 s, unless a test wants it shorter). */
  reconnectTimeWaitMs?: number;
}

/**
 * The Nest NATS transport, with every pattern subscribed under the deployment prefix, every message
 * handled inside the request context carried by its headers, requests and replies larger than one
 * NATS message in parts (`LargePayloads`), and a reply that cannot be sent logged instead of thrown
 * (it threw out of the transport and ended the process).
 */
export class PrefixedNatsServer extends ServerNats {
  private readonly prefix: string;
  private readonly queue: string;
  private closing = false;

  constructor(options: Options) {
    // Reconnects for as long as it takes: with nats.js' default of 10 attempts the connection closed for
    // good after a NATS outage of about 20 s, and the service, alive and healthy, answered nothing again
    // (found by a chaos probe; the services' other connection already retried forever).
    super({
      ...natsServerOptions(options.natsUrl),
      queue: options.queue,
      gracefulShutdown: true,
      gracePeriod: 200,
      noAsyncTraces: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: options.reconnectTimeWaitMs ?? 2_000,
    });
    this.prefix = options.prefix;
    this.queue = options.queue;
  }

  override async close(): Promise<void> {
    this.closing = true;
    await super.close();
  }

  /**
   * Started once the NATS server has every subscription (a flush after them): the SUB messages are sent
   * asynchronously, so a request made from another connection right after start could find no
   * responder yet (a market-data test that asked right after a restart failed so, once in CI).
   */
  override start(callback: (err?: unknown, ...optionalParams: unknown[]) => void): void {
    const client = this.unwrap<NatsConnection>();
    this.bindEvents(client);
    exitWhenClosedForGood(
      client,
      'the NATS connection that serves requests',
      () => this.closing,
      (message) => this.logger.error(message),
      () => process.exit(1),
    );
    client.flush().then(() => callback(), callback);
  }

  override bindEvents(client: NatsConnection): void {
    for (const channel of this.messageHandlers.keys()) {
      const subscription = client.subscribe(prefixed(this.prefix, channel), {
        queue: this.queue,
        callback: this.getMessageHandler(channel).bind(this),
      });
      (this as unknown as { subscriptions: unknown[] }).subscriptions.push(subscription);
    }
  }

  override async handleMessage(channel: string, message: Msg): Promise<unknown> {
    const requestId = message.headers?.get(RPC_HEADERS.requestId) || randomUUID();
    return requestContext.run({ requestId }, async () => {
      if (!message.headers?.has(PARTS_HEADER)) return super.handleMessage(channel, message);
      let data: Uint8Array;
      try {
        data = await this.payloads().payloadOf(message, PART_TIMEOUT_MS);
      } catch (error) {
        this.logger.warn(`${channel}: the request's parts could not be fetched (${errorMessage(error)})`);
        // Nest's error packet: the client reports that the service could not answer.
        this.respond(message, codec.encode({ err: 'the request could not be read', isDisposed: true }));
        return undefined;
      }
      return super.handleMessage(channel, Object.create(message, { data: { value: data } }) as Msg);
    });
  }

  override getPublisher(natsMsg: Msg, id: string, ctx: NatsContext): (response: unknown) => unknown {
    const respond = (data: Uint8Array, options?: PublishOptions) => this.respond(natsMsg, data, options);
    return super.getPublisher(Object.create(natsMsg, { respond: { value: respond } }) as Msg, id, ctx);
  }

  private respond(message: Msg, data: Uint8Array, options?: PublishOptions): boolean {
    try {
      const outgoing = this.payloads().outgoing(data, options?.headers);
      return message.respond(outgoing.data, { ...options, headers: outgoing.headers });
    } catch (error) {
      this.logger.error(`${message.subject}: the reply could not be sent (${errorMessage(error)})`);
      return false;
    }
  }

  private payloads(): LargePayloads {
    return LargePayloads.of(this.unwrap<NatsConnection>(), this.prefix);
  }
}
