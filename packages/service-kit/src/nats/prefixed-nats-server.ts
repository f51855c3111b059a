import { randomUUID } from 'node:crypto';
import { ServerNats } from '@nestjs/microservices';
import type { Msg, NatsConnection } from 'nats';
import { RPC_HEADERS } from '@exchange/contracts';
import { requestContext } from '../logging/request-context';
import { prefixed } from './subjects';

interface Options {
  servers: string;
  prefix: string;
  /** Queue group: replicas of one service share the requests instead of all answering them. */
  queue: string;
}

/**
 * The Nest NATS transport, with every pattern subscribed under the deployment prefix and every message
 * handled inside the request context carried by its headers.
 */
export class PrefixedNatsServer extends ServerNats {
  private readonly prefix: string;
  private readonly queue: string;

  constructor(options: Options) {
    super({ servers: options.servers, queue: options.queue, gracefulShutdown: true, gracePeriod: 200, noAsyncTraces: true });
    this.prefix = options.prefix;
    this.queue = options.queue;
  }

  /**
   * Started once the NATS server has every subscription (a flush after them): the SUB messages are sent
   * asynchronously, so a request made from another connection right after start could find no
   * responder yet (a market-data test that asked right after a restart failed so, once in CI).
   */
  override start(callback: (err?: unknown, ...optionalParams: unknown[]) => void): void {
    const client = this.unwrap<NatsConnection>();
    this.bindEvents(client);
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
    return requestContext.run({ requestId }, () => super.handleMessage(channel, message));
  }
}
