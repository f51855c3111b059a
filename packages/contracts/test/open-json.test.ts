import { createEventInput, describeIssues, importRequest, jsonDepthAtMost, MAX_JSON_DEPTH } from '../src';

/** `levels` arrays one inside the other around a 1. */
const nested = (levels: number): unknown => {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

const event = (eventMetadata: unknown) => ({
  title: 'An event',
  slug: 'an-event',
  description: '',
  endDate: '2030-01-01T00:00:00Z',
  eventMetadata,
  markets: [{ question: 'Q?', slug: 'a-market' }],
});

describe('open JSON fields', () => {
  it('measures nesting by objects and arrays', () => {
    expect(jsonDepthAtMost('text', 0)).toBe(true);
    expect(jsonDepthAtMost({}, 1)).toBe(true);
    expect(jsonDepthAtMost({ a: [{ b: null }] }, 3)).toBe(true);
    expect(jsonDepthAtMost({ a: [{ b: null }] }, 2)).toBe(false);
    expect(jsonDepthAtMost({ a: 1, b: { c: [] } }, 2)).toBe(false);
  });

  it(`takes eventMetadata ${MAX_JSON_DEPTH} levels deep and refuses it deeper, naming the field`, () => {
    expect(createEventInput.safeParse(event({ a: nested(MAX_JSON_DEPTH - 1) })).success).toBe(true);
    const deeper = createEventInput.safeParse(event({ a: nested(MAX_JSON_DEPTH) }));
    expect(deeper.success).toBe(false);
    expect(describeIssues(deeper.error!)).toBe(`eventMetadata must not be nested more than ${MAX_JSON_DEPTH} levels deep`);
  });

  it('refuses an upstream event nested 100,000 levels deep without recursing that far', () => {
    const parsed = importRequest.safeParse({ events: [{ slug: 'fine' }, { slug: 'deep', x: nested(100_000) }] });
    expect(parsed.success).toBe(false);
    expect(describeIssues(parsed.error!)).toBe('events.1: an upstream event must not be nested more than 256 levels deep');
    // An eventMetadata past the stored bound still travels, for the catalog to skip that one event.
    expect(importRequest.safeParse({ events: [{ slug: 'deep', eventMetadata: nested(126) }] }).success).toBe(true);
  });
});
