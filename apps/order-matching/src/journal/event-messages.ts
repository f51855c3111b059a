import {
  MAX_EVENTS_PER_MESSAGE,
  MAX_MESSAGE_BYTES,
  type MatchingEvent,
  type MatchingEventBatch,
} from '@exchange/contracts';

/** A message of a batch, as published and as the JSON text its outbox row holds. */
export interface EventMessage {
  payload: MatchingEventBatch;
  json: string;
}

/**
 * The messages of a batch: its events in order, one message unless they exceed MAX_EVENTS_PER_MESSAGE
 * events or MAX_MESSAGE_BYTES, where they are cut into several. One message per batch instead of one
 * per event is what keeps JetStream and the consumers' per-message cost off the order path.
 */
export function eventMessages(batchId: string, events: MatchingEvent[]): EventMessage[] {
  const head = `{"batchId":${JSON.stringify(batchId)},"events":[`;
  const messages: EventMessage[] = [];
  let chunk: MatchingEvent[] = [];
  let texts: string[] = [];
  let bytes = head.length + 2;
  const cut = () => {
    messages.push({ payload: { batchId, events: chunk }, json: `${head}${texts.join(',')}]}` });
    chunk = [];
    texts = [];
    bytes = head.length + 2;
  };
  for (const event of events) {
    const text = JSON.stringify(event);
    const size = Buffer.byteLength(text) + 1;
    if (chunk.length === MAX_EVENTS_PER_MESSAGE || (chunk.length > 0 && bytes + size > MAX_MESSAGE_BYTES)) cut();
    chunk.push(event);
    texts.push(text);
    bytes += size;
  }
  if (chunk.length) cut();
  return messages;
}
