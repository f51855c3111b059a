import { MAX_EVENTS_PER_MESSAGE, MAX_MESSAGE_BYTES, type MatchingEvent } from '@exchange/contracts';

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
