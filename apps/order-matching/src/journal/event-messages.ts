import {
  MATCHING_BATCH_SUBJECT,
  MATCHING_MARKET_RESOLVED_SUBJECT,
  MAX_EVENTS_PER_MESSAGE,
  MAX_MESSAGE_BYTES,
  type MarketResolvedMessage,
  type MatchingEvent,
} from '@exchange/contracts';

/** A batch's outbox rows in order, subjects and texts side by side (as the journal statement takes them). */
export interface OutboxMessages {
  subjects: string[];
  texts: string[];
}

/**
 * Every outbox row of a batch: its event messages (below), then each resolution again as a small
 * message of its own subject (MATCHING_MARKET_RESOLVED_SUBJECT), for consumers of resolutions only.
 */
export function outboxMessages(batchId: string, events: MatchingEvent[]): OutboxMessages {
  const texts = eventMessages(batchId, events);
  const subjects = texts.map(() => MATCHING_BATCH_SUBJECT);
  for (const event of events) {
    if (event.type !== 'market-resolved') continue;
    const message: MarketResolvedMessage = { ...event.data, batchId };
    subjects.push(MATCHING_MARKET_RESOLVED_SUBJECT);
    texts.push(JSON.stringify(message));
  }
  return { subjects, texts };
}

/**
 * The messages of a batch, as the JSON text (`MatchingEventBatch`) that is stored in the outbox and
 * published as it is: its events in order, one message unless they exceed MAX_EVENTS_PER_MESSAGE events
 * or MAX_MESSAGE_BYTES, where they are cut into several. One message per batch instead of one per event
 * is what keeps JetStream and the consumers' per-message cost off the order path.
 */
export function eventMessages(batchId: string, events: MatchingEvent[]): string[] {
  const head = `{"batchId":${JSON.stringify(batchId)},"events":[`;
  const messages: string[] = [];
  let texts: string[] = [];
  let bytes = head.length + 2;
  const cut = () => {
    messages.push(`${head}${texts.join(',')}]}`);
    texts = [];
    bytes = head.length + 2;
  };
  for (const event of events) {
    const text = JSON.stringify(event);
    const size = Buffer.byteLength(text) + 1;
    if (texts.length === MAX_EVENTS_PER_MESSAGE || (texts.length > 0 && bytes + size > MAX_MESSAGE_BYTES)) cut();
    texts.push(text);
    bytes += size;
  }
  if (texts.length) cut();
  return messages;
}
