import type { JsMsg, NatsConnection } from 'nats';
import { MATCHING_STREAM } from '@exchange/contracts';
import { outboxIdOf, streamName } from '@exchange/service-kit';

const MSG_ID = 'Nats-Msg-Id';

/** The order-matching outbox row id a MATCHING message carries in its message id (none: published otherwise). */
export function rowIdOf(message: Pick<JsMsg, 'headers'>): bigint | undefined {
  return outboxIdOf(message.headers?.get(MSG_ID));
}

/** The row id of the message the stream stores at `seq`; undefined when it holds none there (aged out). */
export async function storedRowId(nc: NatsConnection, prefix: string, seq: number): Promise<bigint | undefined> {
  if (seq < 1) return undefined;
  const jsm = await nc.jetstreamManager();
  const stored = await jsm.streams.getMessage(streamName(prefix, MATCHING_STREAM.name), { seq }).catch(() => undefined);
  return outboxIdOf(stored?.header.get(MSG_ID));
}

/**
 * The highest outbox row id applied. order-matching publishes its rows in id order, so an id at or
 * below it means order-matching's database went back in time (restored from a backup: its new rows
 * reuse ids, and its books' bookSeqs too) or a row was published again after the stream's duplicate
 * window; either way the books are reloaded from order-matching (docs/market-data.md, "Recovery").
 */
export class RowIdWatch {
  constructor(private highest?: bigint) {}

  /** The highest id before `id` when `id` is a regression; `id` is the highest from now on either way. */
  regression(id: bigint | undefined): bigint | undefined {
    if (id === undefined) return undefined;
    const previous = this.highest;
    this.highest = id;
    return previous !== undefined && id <= previous ? previous : undefined;
  }
}
