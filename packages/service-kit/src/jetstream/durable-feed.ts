import { Logger } from '@nestjs/common';
import { AckPolicy, DeliverPolicy, nanos, type ConsumerMessages, type NatsConnection } from 'nats';
import { errorMessage } from '../logging/error-message';
import { ThrottledLog } from '../logging/throttled-log';
import { prefixed } from '../nats/subjects';
import { backoffMs } from '../retry/backoff';
import { ensureStream, untilStreamExists } from './streams';

export interface FeedOptions {
  stream: { name: string; subjects: string };
  /** Durable consumer name (CONSUMER_NAME + a suffix per feed). */
  durable: string;
  /** Subject filter, without the deployment prefix. */
  filter: string;
  /**
   * Where delivery starts: a stream sequence, or the stream's beginning. With `restart`, an existing
   * consumer is replaced so that delivery starts there again (the read model was loaded from a
   * snapshot at that position); otherwise an existing consumer resumes where it was acknowledged.
   */
  startSeq?: number;
  restart: boolean;
  /**
   * Acknowledge a message and all before it at once (AckPolicy.All): for a consumer that applies
   * messages in batches and acknowledges the last of each, one ack instead of one per message.
   */
  ackAll?: boolean;
  /**
   * The consumer is this process's alone (its name is per replica or per database). Messages an earlier
   * process took and did not acknowledge (it was killed, or stopped with a pull in hand) are delivered
   * again at once: the consumer is recreated at the first of them. Otherwise the server redelivers them
   * only after its ack wait (30 s), behind newer messages, and the backlog counted at start leaves them
   * out. Not for a consumer replicas share: another live replica's messages would be taken from it.
   */
  soleReader?: boolean;
  /**
   * The feed ends (its loop throws) when the consumer or its stream is deleted, instead of nats.js
   * retrying for ever without a word; pair it with `FeedWatch`. A NATS restart does not end it: the
   * consumer is still there afterwards.
   */
  endWhenGone?: boolean;
  /**
   * The stream is another service's, which fills it when it creates it (the catalog's CATALOG: every
   * market's snapshot): wait until it exists rather than create it empty.
   */
  ownerCreatesStream?: boolean;
  /**
   * What the owner's database says it applied last (`FeedPosition`, stored with each message's effects),
   * or null when it stores positions and holds none yet (a new database). When given, the database alone
   * says where delivery starts, and the consumer is made anew there at every start: at that message
   * again (applying it twice changes nothing), or at the stream's start for a position in an earlier
   * stream of that name (recreated: the owner refilled it) and for null. NATS's own position would skip
   * what a database restored from a backup lost, and compared with it, a filtered consumer's
   * acknowledgement floor (0 once made anew, or a later message of another subject) told nothing.
   */
  appliedUpTo?: FeedPosition | null;
}

/**
 * Where a feed is taken up at the next start: its stream's creation time (which tells a recreated stream)
 * and the sequence of the message to deliver first, the last applied (again) or the first still waiting
 * to be applied (`applyFeed`).
 */
export interface FeedPosition {
  streamCreated: string;
  seq: number;
}

const feedLogger = new Logger('DurableFeed');

/** How often a feed still catching up at start says so. */
const SLOW_CATCH_UP_MS = 30_000;

/**
 * How long a message that failed waits to be delivered again: 1 s, doubling at each delivery up to 5 s
 * (longer, a feed would stay behind for that long once the cause, a database outage say, is gone).
 */
const FIRST_REDELIVERY_MS = 1_000;
const MAX_REDELIVERY_MS = 5_000;

/** Consumers of replicas that are gone are removed by the server after this long. */
const INACTIVE_THRESHOLD_MS = 60 * 60 * 1_000;

/** An open feed: its messages, and what its start-up waits for (`applyFeed`). */
export interface OpenFeed {
  messages: ConsumerMessages;
  /** How many messages NATS says wait for the consumer now (for the start-up's log lines only). */
  backlog: number;
  /**
   * For a consumer of this process alone (`soleReader`): the last message the filter matched when the
   * feed opened, which the start-up waits to apply, or 0 when the consumer had delivered it already (or
   * there is none). NATS's own count (`num_pending`), which the start-up waited to see reach 0, stayed
   * one to seven too high on nats-server 2.9 for a consumer made to start in the middle of a stream
   * under a wildcard filter, and the start-up never ended (a restore probe). A consumer replicas share
   * keeps NATS's count: another replica may take that last message.
   */
  lastSeq?: number;
  /** When the stream was created (for the positions the owner stores, `FeedPosition`). */
  streamCreated: string;
}

/** A durable JetStream consumer with explicit acks (or cumulative ones). */
export async function openFeed(
  nc: NatsConnection,
  prefix: string,
  options: FeedOptions,
): Promise<OpenFeed> {
  const stream = options.ownerCreatesStream ? await untilStreamExists(nc, prefix, options.stream) : await ensureStream(nc, prefix, options.stream);
  const jsm = await nc.jetstreamManager();
  const streamCreated = (await jsm.streams.info(stream)).created;
  const reading = {
    ack_policy: options.ackAll ? AckPolicy.All : AckPolicy.Explicit,
    filter_subject: prefixed(prefix, options.filter),
  };
  let { startSeq, restart } = options;
  if (options.appliedUpTo !== undefined) {
    // At the applied message itself (applying it again changes nothing), which the filter matches.
    const same = options.appliedUpTo?.streamCreated === streamCreated;
    startSeq = same ? options.appliedUpTo!.seq : undefined;
    restart = true;
    if (options.appliedUpTo && !same) feedLogger.warn(`${options.durable}: the database's position is in an earlier stream ${stream}; delivering it from its start`);
  }
  const existing = restart ? undefined : await jsm.consumers.info(stream, options.durable).catch(() => undefined);
  // One with other settings (an older version of this service) starts anew.
  if (existing && (existing.config.ack_policy !== reading.ack_policy || existing.config.filter_subject !== reading.filter_subject)) {
    restart = true;
  } else if (existing && options.soleReader && existing.num_ack_pending > 0) {
    // A consumer that acknowledged nothing yet has a floor of 0, not the sequence it was made to start at.
    const floor = existing.ack_floor.stream_seq;
    startSeq = Math.max(floor > 0 ? floor + 1 : (existing.config.opt_start_seq ?? 1), startSeq ?? 1);
    restart = true;
    feedLogger.log(`${options.durable}: ${existing.num_ack_pending} messages taken but not acknowledged before; delivering again from ${startSeq}`);
  }
  // An existing consumer resumes where it was acknowledged; a new or replaced one starts at startSeq.
  if (restart || !existing) {
    if (restart) await jsm.consumers.delete(stream, options.durable).catch(() => false);
    await jsm.consumers.add(stream, {
      durable_name: options.durable,
      ...reading,
      inactive_threshold: nanos(INACTIVE_THRESHOLD_MS),
      max_ack_pending: 10_000,
      ...(startSeq !== undefined && startSeq > 1
        ? { deliver_policy: DeliverPolicy.StartSequence, opt_start_seq: startSeq }
        : { deliver_policy: DeliverPolicy.All }),
    });
  }
  const consumer = await nc.jetstream().consumers.get(stream, options.durable);
  const info = await consumer.info();
  const messages = await consumer.consume({ max_messages: 1_000, abort_on_missing_resource: options.endWhenGone === true });
  if (!options.soleReader) return { messages, backlog: info.num_pending, streamCreated };
  const last = await jsm.streams.getMessage(stream, { last_by_subj: reading.filter_subject }).then(
    (message) => message.seq,
    () => 0,
  );
  // Where the consumer delivers next: where it was made to start, or after what it acknowledged.
  const next = restart || !existing ? (startSeq ?? 1) : Math.max(info.ack_floor.stream_seq + 1, info.config.opt_start_seq ?? 1);
  return { messages, backlog: info.num_pending, lastSeq: last >= next ? last : 0, streamCreated };
}

/**
 * A feed as its owner holds it, from its start to the owner's shutdown. `watch` calls `exit` when the
 * feed's loop (`done`) ends other than by the owner's `close`: the consumer or its stream was deleted
 * (an operator, a recreated stream), or the loop failed. Nothing would be delivered any more, so the
 * process must start again: its start-up creates the consumer anew and finds out what the stream lost.
 * Until the twenty-fourth session such a feed stayed stuck without a word while the health probe said
 * ok (found by an operations probe). `close` stops delivery and waits for the message in hand.
 */
export class FeedWatch {
  private readonly closing = new AbortController();
  private feed?: { messages: ConsumerMessages; done: Promise<void> };

  /** Aborted when the owner closes the feed: for the owner's other waits, which end with it. */
  get signal(): AbortSignal {
    return this.closing.signal;
  }

  watch(messages: ConsumerMessages, done: Promise<void>, what: string, exit: () => void): void {
    this.feed = { messages, done };
    const ended = (reason: string) => {
      if (this.closing.signal.aborted) return;
      feedLogger.error(`${what}: the feed ended (${reason}); exiting, to start again with a new consumer`);
      exit();
    };
    void done.then(
      () => ended('its messages ended'),
      (error: unknown) => ended(errorMessage(error)),
    );
  }

  /** At the owner's shutdown: aborted first, so that the end is no loss; a feed that failed was said when it ended. */
  async close(): Promise<void> {
    this.closing.abort();
    await this.feed?.messages.close();
    await this.feed?.done.catch(() => undefined);
  }
}

/**
 * Applies each message of a feed in order: acknowledged once applied, redelivered after a pause that
 * grows with its deliveries when applying failed. A message that keeps failing is logged in full once,
 * then in a line every 30 s: until 2026-11-27 its stack was logged at every redelivery, each second
 * (a resource-limits probe saw 94 in a minute). `ready` resolves once the backlog that waited when
 * the feed opened is applied; `done` when the feed is closed. `apply` is also told where a later start
 * should take the feed up if this message is applied (a `FeedPosition`, for an owner that stores it
 * with the message's effects): this message, or the first earlier one that failed and waits to be
 * delivered again, which later messages must not leave behind.
 */
export function applyFeed(
  feed: Pick<OpenFeed, 'messages' | 'backlog' | 'lastSeq' | 'streamCreated'>,
  apply: (data: unknown, takeUpAt: FeedPosition) => Promise<void>,
  what: string,
): { ready: Promise<void>; done: Promise<void> } {
  let caughtUp!: () => void;
  const ready = new Promise<void>((resolve) => (caughtUp = resolve));
  let applied = 0;
  let pending = feed.backlog;
  // A start-up that waits long says how far it got (a probe once saw one wait minutes after two kills).
  const slow = setInterval(() => feedLogger.warn(`${what}: still catching up, ${applied} applied, ${pending} pending (${feed.backlog} when the feed opened)`), SLOW_CATCH_UP_MS);
  void ready.then(() => clearInterval(slow));
  const target = feed.lastSeq;
  if (target !== undefined ? target === 0 : feed.backlog === 0) caughtUp();
  /** The messages that failed and are not applied yet, by stream sequence. */
  const failing = new Map<number, ThrottledLog>();
  let highestApplied = 0;
  const done = (async () => {
    for await (const message of feed.messages) {
      const { streamSequence, redeliveryCount: deliveries } = message.info;
      try {
        const waiting = [...failing.keys()].filter((seq) => seq !== streamSequence);
        const seq = waiting.length > 0 ? Math.min(...waiting) : Math.max(highestApplied, streamSequence);
        await apply(message.json(), { streamCreated: feed.streamCreated, seq });
        message.ack();
        highestApplied = Math.max(highestApplied, streamSequence);
        applied++;
        failing.delete(streamSequence);
      } catch (error) {
        const log = failing.get(streamSequence) ?? new ThrottledLog();
        failing.set(streamSequence, log);
        log.occurred((_since, total) =>
          total === 1
            ? feedLogger.error(error instanceof Error ? error : String(error), `${what} not applied`)
            : feedLogger.warn(`${what}: message ${streamSequence} still not applied after ${deliveries} deliveries: ${errorMessage(error)}`),
        );
        message.nak(backoffMs(deliveries - 1, FIRST_REDELIVERY_MS, MAX_REDELIVERY_MS));
      }
      pending = message.info.pending;
      if (target !== undefined ? streamSequence >= target : pending === 0) caughtUp();
    }
  })().finally(() => clearInterval(slow));
  return { ready, done };
}
