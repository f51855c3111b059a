import { RetentionPolicy, StorageType, type NatsConnection } from 'nats';
import { prefixed, streamName } from '../nats/subjects';

/** Creates the stream (or widens its subjects) so that publishers never write into the void. */
export async function ensureStream(
  nc: NatsConnection,
  prefix: string,
  stream: { name: string; subjects: string },
): Promise<string> {
  const jsm = await nc.jetstreamManager();
  const name = streamName(prefix, stream.name);
  const subjects = [prefixed(prefix, stream.subjects)];
  try {
    await jsm.streams.info(name);
    await jsm.streams.update(name, { subjects });
  } catch {
    await jsm.streams.add({
      name,
      subjects,
      storage: StorageType.File,
      retention: RetentionPolicy.Limits,
      duplicate_window: 2 * 60 * 1_000_000_000,
    });
  }
  return name;
}
