import { createHash } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { ErrorCode, JSONCodec, nanos, NatsError, type JetStreamClient, type NatsConnection } from 'nats';
import { errorMessage } from '../logging/error-message';
import { ThrottledLog } from '../logging/throttled-log';
import { prefixed, streamName } from '../nats/subjects';
import { backoffMs } from '../retry/backoff';
import { ensureStreamCreated, streamInfoIfAny, streamState, type StreamLimits } from './streams';

/**
 * A row to publish: its payload as a value, JSON-encoded on publish, or as the JSON text its writer
 * already made (order-matching's batches, which would otherwise be stringified twice).
 */
export type OutboxRecord = { id: bigint; subject: string } & ({ payload: unknown } | { json: string });

/** How a service's outbox table is read and marked; each service implements it with its own Prisma client. */
export interface OutboxStore {
  pending(limit: number): Promise<OutboxRecord[]>;
  markPublished(ids: bigint[]): Promise<void>;
}

/** The stream a relay publishes into, which it creates (with the owner's limits) when it is missing. */
export interface RelayStream {
  name: string;
  subjects: string;
  limits?: StreamLimits;
  /**
   * Run after the relay created the stream (at start or after a publish found none), before it publishes
   * anything more: the owner writes into its outbox again what the stream must hold from before (the
   * catalog: every market's snapshot).
   */
  onCreated?: () => Promise<void>;
  /**
   * The highest outbox row id the owner's database has numbered (its sequence). Given, a stream whose
   * last message carries a later row at start is deleted and made anew (`onCreated` refilling it): the
   * database was restored from a backup, or replaced, and the stream holds changes it lost, which
   * readers taking their feed up where their own databases say (`FeedPosition`) would apply. The
   * operator deleted the stream by hand before (docs/operations.md); one who forgot brought back
   * markets the catalog no longer had (a restore probe).
   */
  highestRowId?: () => Promise<bigint>;
}

const codec = JSONCodec();
const utf8 = new TextEncoder();
const BATCH = 500;
/**
 * How long a publish waits for the stream's acknowledgement before the batch is tried again (the same
 * message ids: the stream's duplicate window drops what had landed). nats.js' 5 s default made events
 * written during a NATS outage trail by 2-4 s once NATS was back (a test measured it): a publish sent
 * as the server came back went unacknowledged and was waited out.
 */
const ACK_TIMEOUT_MS = 1_000;
/**
 * How often an idle relay checks that its stream is there, with its limits: a deletion is otherwise
 * noticed only by the next publish, and a consumer's start may meanwhile create the stream without them.
 */
const STREAM_CHECK_MS = 5_000;

/**
 * The pause after a failed drain, doubling up to the maximum while drains keep failing. Until
 * 2026-11-27 a failing relay tried again at every commit offered to it: with JetStream full,
 * order-matching's 60 batches a second each re-read up to 500 rows (found by a resource-limits probe).
 */
const FIRST_RETRY_MS = 250;
const MAX_RETRY_MS = 5_000;

const encoded = (record: OutboxRecord): Uint8Array => ('json' in record ? utf8.encode(record.json) : codec.encode(record.payload));

/**
 * A row's JetStream message id: its subject, its id and a digest of its bytes. The same row published
 * again (a retry, a crash before its mark) has the same id, which the stream's duplicate window drops;
 * another row under a reused id (a database restored from a backup numbers its new rows as the lost
 * ones were) does not, and goes out. Until the twenty-fourth session the id was subject and row id only,
 * and such rows were dropped without a word (found by an operations probe).
 */
export function outboxMessageId(subject: string, id: bigint, bytes: Uint8Array): string {
  return `${subject}:${id}:${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`;
}

/**
 * What a failed drain says. JetStream without room for a message (the stream at its limits with
 * discard new, or the server's storage full) answers 503, which nats.js reports as an error whose
 * message is just "503": the server's description is in its `api_error`.
 */
function failureCause(error: unknown, stream: string): string {
  const api = error instanceof NatsError ? error.api_error : undefined;
  if (api && /exceeded|insufficient/i.test(api.description)) return `JetStream has no room for stream ${stream} (${api.description}): events wait in the outbox`;
  return api ? `JetStream refused the publish: ${api.description} (${api.err_code})` : errorMessage(error);
}

/** The outbox row id in a message id of `outboxMessageId` (or of the `subject:id` form before it). */
export function outboxIdOf(messageId: string | undefined): bigint | undefined {
  const id = messageId?.split(':')[1];
  return id !== undefined && /^[0-9]+$/.test(id) ? BigInt(id) : undefined;
}

/**
 * Moves committed outbox rows to JetStream, in id order. A row is marked published only after the
 * stream acknowledged it (a store may write its marks a little later); a crash in between republishes
 * it with the same message id, which the stream's duplicate window drops, so consumers see each change
 * once. A reconnection of NATS starts a drain at once. The relay creates its stream at start and again
 * when a publish finds none (deleted, or lost with the server's storage): until the twenty-fourth
 * session it retried into the void every second until a restart (found by an operations probe). After
 * a failed drain the relay pauses (250 ms, doubling to 5 s while failures go on; a reconnection of NATS
 * ends it), and says the failure once, then a line every 30 s, then once more when it publishes again.
 */
export class OutboxRelay {
  private readonly logger = new Logger(OutboxRelay.name);
  private timer?: NodeJS.Timeout;
  private checker?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
  /** Rows just committed, handed over by their writer so that they need not be read back. */
  private offered: OutboxRecord[] = [];
  /** Whether the next drain reads pending rows from the store (start, kick, after a failure). */
  private mustPoll = true;
  /** Kicks so far: a poll that began before the latest kick does not clear `mustPoll`. */
  private kicks = 0;
  /** Whether the next drain creates the stream first (a publish found none). */
  private streamMissing = false;
  /** Whether the stream's `onCreated` is still to run. */
  private refillDue = false;
  /** The highest row id published so far. */
  private lastId = -1n;
  private readonly js: JetStreamClient;
  private stopped = false;
  /** Failed drains in a row, which set the pause before the next. */
  private retries = 0;
  /** Ends the pause after a failed drain early: NATS reconnected, or the relay stops. */
  private resume?: () => void;
  private readonly failures = new ThrottledLog();
  private failure?: string;

  constructor(
    private readonly nc: NatsConnection,
    private readonly prefix: string,
    private readonly store: OutboxStore,
    private readonly stream: RelayStream,
    private readonly pollMs = 1_000,
  ) {
    this.js = nc.jetstream();
  }

  /**
   * Creates the stream (or widens it), then publishes what is pending and polls every `pollMs`. When
   * this start created the stream, it returns once the owner's refill (`onCreated`) is published (or its
   * first try failed), so that the owner reports healthy only then: order-matching, which docker compose
   * and `start.sh` start once the catalog is healthy, took the stream's few first messages for all of them
   * and traded while it did not know most markets yet (a restore probe).
   */
  async start(): Promise<void> {
    await this.dropStreamAheadOfStore();
    await this.ensureStream();
    this.timer = setInterval(() => this.kick(), this.pollMs);
    this.checker = setInterval(() => void this.checkStream(), STREAM_CHECK_MS);
    void this.kickOnReconnect();
    const refill = this.refillDue;
    const first = this.kick();
    if (refill) await first;
  }

  /** Has the next drain create the stream, or set its limits again, when it is missing or lost them. */
  private async checkStream(): Promise<void> {
    try {
      const state = await streamState(this.nc, this.prefix, this.stream);
      const maxAgeNs = this.stream.limits ? nanos(this.stream.limits.maxAgeSeconds * 1_000) : undefined;
      if (state === undefined || (maxAgeNs !== undefined && state.maxAgeNs !== maxAgeNs)) {
        this.streamMissing = true;
        void this.kick();
      }
    } catch {
      // NATS away: the drains say so.
    }
  }

  private async dropStreamAheadOfStore(): Promise<void> {
    if (!this.stream.highestRowId) return;
    const jsm = await this.nc.jetstreamManager();
    const name = streamName(this.prefix, this.stream.name);
    const info = await streamInfoIfAny(jsm, name);
    if (!info || info.state.messages === 0) return;
    const last = await jsm.streams.getMessage(name, { seq: info.state.last_seq });
    const lastRow = outboxIdOf(last.header?.get('Nats-Msg-Id'));
    const highest = await this.stream.highestRowId();
    if (lastRow === undefined || lastRow <= highest) return;
    this.logger.warn(`stream ${name} holds outbox row ${lastRow}, past the ${highest} this database numbered (restored from a backup?): made anew from the database`);
    await jsm.streams.delete(name);
  }

  /** Creates the stream if it is missing; its `onCreated` then runs in the next drain, until it succeeds once. */
  private async ensureStream(): Promise<void> {
    const { name, created } = await ensureStreamCreated(this.nc, this.prefix, this.stream, this.stream.limits);
    if (created && this.streamMissing) this.logger.warn(`stream ${name} was missing: created again (its consumers load what it no longer holds from its owner)`);
    if (created) this.refillDue = true;
    this.streamMissing = false;
  }

  private async kickOnReconnect(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (this.stopped) return;
      if (status.type === 'reconnect') {
        // What failed may have been the connection: no need to wait out the pause.
        this.resume?.();
        void this.kick();
      }
    }
  }

  /**
   * Publishes rows its writer just committed, in id order, without reading them back: the fast path of
   * a busy writer. Rows a poll already published are skipped.
   */
  offer(records: OutboxRecord[]): Promise<void> {
    this.offered.push(...records);
    return this.run();
  }

  /** Drains what the store holds pending; called after commits (and every `pollMs`). */
  kick(): Promise<void> {
    this.mustPoll = true;
    this.kicks++;
    return this.run();
  }

  private run(): Promise<void> {
    if (this.running) {
      this.again = true;
      return this.running;
    }
    // A failed drain's pause is part of it: what is offered or kicked meanwhile waits for its end.
    this.running = this.drain()
      .then(
        () => this.succeeded(),
        (error: unknown) => this.failed(error),
      )
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          void this.run();
        }
      });
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.timer);
    clearInterval(this.checker);
    this.resume?.();
    await this.running;
  }

  /** Why publishing fails, while it does (the last failure's cause); undefined while it works. */
  get failing(): string | undefined {
    return this.failure;
  }

  private succeeded(): void {
    this.retries = 0;
    this.failure = undefined;
    const failures = this.failures.ended();
    if (failures) this.logger.log(`outbox publishing again after ${failures} failures`);
  }

  /** Says the failure (the first, then a line now and then) and waits before the next drain. */
  private async failed(error: unknown): Promise<void> {
    this.mustPoll = true;
    // A publish to a subject no stream takes has no responders: "503" too, without a JetStream answer.
    if (error instanceof NatsError && error.code === ErrorCode.NoResponders && !error.api_error) this.streamMissing = true;
    const cause = failureCause(error, streamName(this.prefix, this.stream.name));
    this.failure = cause;
    this.failures.occurred((since, total) =>
      this.logger.warn(total === 1 ? `outbox publish failed, will retry: ${cause}` : `outbox publish still failing, ${since} more failures (${total} in all): ${cause}`),
    );
    if (this.stopped) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, backoffMs(this.retries++, FIRST_RETRY_MS, MAX_RETRY_MS));
      this.resume = () => {
        clearTimeout(timer);
        resolve();
      };
    });
    this.resume = undefined;
  }

  private async drain(): Promise<void> {
    if (this.streamMissing) await this.ensureStream();
    if (this.refillDue) {
      await this.stream.onCreated?.();
      this.refillDue = false;
      this.mustPoll = true;
    }
    for (;;) {
      let batch: OutboxRecord[];
      if (this.mustPoll) {
        // Everything the store holds unpublished goes out, whatever its id: with writers that commit
        // concurrently (the catalog's), a row may commit after a row with a higher id was published.
        // Until 2026-11-26 such a row was skipped for good (and 500 of them would have kept the relay
        // polling in a loop).
        // A kick during the read asks for rows it may not have seen (committed after its snapshot), which
        // a writer that cannot offer them counts on (order-matching after a lost answer).
        const kicks = this.kicks;
        batch = await this.store.pending(BATCH);
        if (batch.length < BATCH && kicks === this.kicks) this.mustPoll = false;
      } else {
        // An offered row a poll published already (the offering writer commits in id order).
        batch = this.offered.splice(0, BATCH).filter((r) => r.id > this.lastId);
      }
      if (batch.length) {
        // Sent back to back on one connection, the messages land in the stream in id order.
        await Promise.all(
          batch.map((record) => {
            const bytes = encoded(record);
            return this.js.publish(prefixed(this.prefix, record.subject), bytes, {
              msgID: outboxMessageId(record.subject, record.id, bytes),
              timeout: ACK_TIMEOUT_MS,
            });
          }),
        );
        await this.store.markPublished(batch.map((r) => r.id));
        for (const record of batch) if (record.id > this.lastId) this.lastId = record.id;
      }
      if (!this.mustPoll && this.offered.length === 0) return;
    }
  }
}
