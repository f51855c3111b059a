import { Logger } from '@nestjs/common';
import { nanos, RetentionPolicy, StorageType, type JetStreamManager, type NatsConnection, type NatsError, type StreamInfo } from 'nats';
import { prefixed, streamName } from '../nats/subjects';

const streamLogger = new Logger('Streams');

/**
 * How long a stream keeps its messages. Age only, no size: a size limit would drop messages a consumer
 * that lags behind a burst has not read yet, while an age limit only drops what every live consumer
 * read long ago.
 */
export interface StreamLimits {
  maxAgeSeconds: number;
}

/** Messages published twice within this window (same message id) are stored once. */
const DUPLICATE_WINDOW_MS = 2 * 60 * 1_000;
/** JetStream's error codes. */
const STREAM_NOT_FOUND = 10059;
const STREAM_NAME_IN_USE = 10058;

/** The stream's info, undefined when there is no such stream (other failures are thrown). */
export function streamInfoIfAny(jsm: JetStreamManager, name: string): Promise<StreamInfo | undefined> {
  return jsm.streams.info(name).catch((error: NatsError) => {
    if (error.api_error?.err_code === STREAM_NOT_FOUND) return undefined;
    throw error;
  });
}

/**
 * Creates the stream (or widens its subjects) so that publishers never write into the void. Only the
 * stream's owner passes `limits`: a consumer calling this leaves the limits the owner set as they are.
 */
export async function ensureStream(
  nc: NatsConnection,
  prefix: string,
  stream: { name: string; subjects: string },
  limits?: StreamLimits,
): Promise<string> {
  return (await ensureStreamCreated(nc, prefix, stream, limits)).name;
}

/** `ensureStream`, saying whether this call created the stream (it did not exist). */
export async function ensureStreamCreated(
  nc: NatsConnection,
  prefix: string,
  stream: { name: string; subjects: string },
  limits?: StreamLimits,
): Promise<{ name: string; created: boolean }> {
  const jsm = await nc.jetstreamManager();
  const name = streamName(prefix, stream.name);
  const subjects = [prefixed(prefix, stream.subjects)];
  const bounds = limits ? { max_age: nanos(limits.maxAgeSeconds * 1_000) } : {};
  if (await streamInfoIfAny(jsm, name)) {
    await jsm.streams.update(name, { subjects, ...bounds });
    return { name, created: false };
  }
  return jsm.streams
    .add({
      name,
      subjects,
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
      ...bounds,
    })
    .then(
      () => ({ name, created: true }),
      async (error: NatsError) => {
        // Another service created it meanwhile.
        if (error.api_error?.err_code !== STREAM_NAME_IN_USE) throw error;
        await jsm.streams.update(name, { subjects, ...bounds });
        return { name, created: false };
      },
    );
}

/**
 * Resolves once the stream exists (checking every second, saying so every 10 s): for a consumer of a
 * stream its owner fills when it creates it (the catalog's CATALOG). Created empty by a consumer, the
 * stream was never filled: its owner found it there (found by an operations probe).
 */
export async function untilStreamExists(nc: NatsConnection, prefix: string, stream: { name: string }): Promise<string> {
  const jsm = await nc.jetstreamManager();
  const name = streamName(prefix, stream.name);
  for (let waited = 0; ; waited++) {
    if (await streamInfoIfAny(jsm, name)) return name;
    if (waited % 10 === 0) streamLogger.warn(`waiting for stream ${name}, which its owner creates`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}

/** Whether the stream exists, and its age limit in ns (0: none), for a relay's check. */
export async function streamState(nc: NatsConnection, prefix: string, stream: { name: string }): Promise<{ maxAgeNs: number } | undefined> {
  const info = await streamInfoIfAny(await nc.jetstreamManager(), streamName(prefix, stream.name));
  return info && { maxAgeNs: info.config.max_age };
}

/**
 * The first and last sequences a stream holds: what is before `first` is gone (aged out or purged). An
 * empty stream holds `last + 1` as its first, or 0 and 0 if it never had a message. `createdMs`: when
 * the stream was created (by the server's clock), so that a position taken before belongs to another
 * stream of that name.
 */
export async function storedSeqs(nc: NatsConnection, prefix: string, stream: { name: string }): Promise<{ first: number; last: number; createdMs: number }> {
  const jsm = await nc.jetstreamManager();
  const { state, created } = await jsm.streams.info(streamName(prefix, stream.name));
  return { first: state.first_seq, last: state.last_seq, createdMs: Date.parse(created) };
}
