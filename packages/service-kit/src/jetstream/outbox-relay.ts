import { Logger } from '@nestjs/common';
import { JSONCodec, type JetStreamClient } from 'nats';
import { prefixed } from '../nats/subjects';

export interface OutboxRecord {
  id: bigint;
  subject: string;
  payload: unknown;
}

/** How a service's outbox table is read and marked; each service implements it with its own Prisma client. */
export interface OutboxStore {
  pending(limit: number): Promise<OutboxRecord[]>;
  markPublished(ids: bigint[]): Promise<void>;
}

const codec = JSONCodec();
const BATCH = 500;

/**
 * Moves committed outbox rows to JetStream, in id order. A row is marked published only after the
 * stream acknowledged it; a crash in between republishes it with the same message id, which the
 * stream's duplicate window drops, so consumers see each change once.
 */
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;

  constructor(
    private readonly js: JetStreamClient,
    private readonly prefix: string,
    private readonly store: OutboxStore,
    private readonly pollMs = 1_000,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.kick();
  }

  /** Drains now; called after each commit that wrote to the outbox. */
  kick(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    this.running = this.drain()
      .catch((error) => this.logger.warn(`outbox publish failed, will retry: ${String(error)}`))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          void this.kick();
        }
      });
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  private async drain(): Promise<void> {
    for (;;) {
      const batch = await this.store.pending(BATCH);
      if (batch.length === 0) return;
      // Sent back to back on one connection, the messages land in the stream in id order.
      await Promise.all(
        batch.map((record) =>
          this.js.publish(prefixed(this.prefix, record.subject), codec.encode(record.payload), {
            msgID: `${record.subject}:${record.id}`,
          }),
        ),
      );
      await this.store.markPublished(batch.map((r) => r.id));
      if (batch.length < BATCH) return;
    }
  }
}
