import {
  MATCHING_BATCH_SUBJECT,
  MATCHING_MARKET_RESOLVED_SUBJECT,
  MAX_EVENTS_PER_MESSAGE,
  MAX_MESSAGE_BYTES,
  type BookEvent,
  type MatchingEvent,
  type MatchingEventBatch,
} from '@exchange/contracts';
import { eventMessages, outboxMessages } from '../../../src/journal/event-messages';

const book = (bookSeq: number, levels = 1): MatchingEvent => ({
  type: 'book',
  data: {
    conditionId: `0x${'ab'.repeat(32)}`,
    bookSeq,
    changes: Array.from({ length: levels }, (_, i) => ({ side: 'BID', price: String(i + 1), size: '1000000' })),
    timestamp: 1_700_000_000_000,
  },
});
const seqs = (events: MatchingEvent[]) => events.map((e) => (e.data as BookEvent).bookSeq);
const parsed = (json: string) => JSON.parse(json) as MatchingEventBatch;

describe('eventMessages (one message per batch, cut only when too large)', () => {
  it('puts a batch in one message: its id and its events', () => {
    const events = [book(1), book(2), book(3)];
    const [message, ...rest] = eventMessages('0xb1', events);
    expect(rest).toEqual([]);
    expect(parsed(message!)).toEqual({ batchId: '0xb1', events });
  });

  it('makes no message for a batch without events', () => {
    expect(eventMessages('0xb1', [])).toEqual([]);
  });

  it('cuts at MAX_EVENTS_PER_MESSAGE events, keeping the order', () => {
    const events = Array.from({ length: MAX_EVENTS_PER_MESSAGE * 2 + 1 }, (_, i) => book(i + 1));
    const messages = eventMessages('0xb2', events).map(parsed);
    expect(messages.map((m) => m.events.length)).toEqual([MAX_EVENTS_PER_MESSAGE, MAX_EVENTS_PER_MESSAGE, 1]);
    expect(messages.flatMap((m) => seqs(m.events))).toEqual(seqs(events));
    expect(messages.every((m) => m.batchId === '0xb2')).toBe(true);
  });

  it('cuts before a message would exceed MAX_MESSAGE_BYTES', () => {
    // About 20 KB per event: 26 of them fit in 512 KiB.
    const events = Array.from({ length: 60 }, (_, i) => book(i + 1, 400));
    const messages = eventMessages('0xb3', events);
    expect(messages.length).toBeGreaterThan(2);
    for (const m of messages) {
      expect(Buffer.byteLength(m)).toBeLessThanOrEqual(MAX_MESSAGE_BYTES);
      expect(parsed(m).batchId).toBe('0xb3');
    }
    expect(messages.flatMap((m) => seqs(parsed(m).events))).toEqual(seqs(events));
  });
});

describe('outboxMessages (the batch messages, then each resolution on its own subject)', () => {
  const resolution = (conditionId: string): MatchingEvent => ({
    type: 'market-resolved',
    data: { conditionId, winningOutcome: 0, resolvedAt: 1_700_000_000_000 },
  });

  it('gives a batch without resolutions its messages on the batch subject only', () => {
    const { subjects, texts } = outboxMessages('0xb4', [book(1), book(2)]);
    expect(subjects).toEqual([MATCHING_BATCH_SUBJECT]);
    expect(texts).toEqual(eventMessages('0xb4', [book(1), book(2)]));
  });

  it('adds one message per resolution, after the batch messages, in the order of the events', () => {
    const [a, b] = [`0x${'0a'.repeat(32)}`, `0x${'0b'.repeat(32)}`];
    const events = [resolution(a), book(1), resolution(b)];
    const { subjects, texts } = outboxMessages('0xb5', events);
    expect(subjects).toEqual([MATCHING_BATCH_SUBJECT, MATCHING_MARKET_RESOLVED_SUBJECT, MATCHING_MARKET_RESOLVED_SUBJECT]);
    expect(parsed(texts[0]!).events).toEqual(events);
    expect(texts.slice(1).map((t) => JSON.parse(t))).toEqual([
      { conditionId: a, winningOutcome: 0, resolvedAt: 1_700_000_000_000, batchId: '0xb5' },
      { conditionId: b, winningOutcome: 0, resolvedAt: 1_700_000_000_000, batchId: '0xb5' },
    ]);
  });
});
