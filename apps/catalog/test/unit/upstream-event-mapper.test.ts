import { readFileSync } from 'node:fs';
import path from 'node:path';
import { mapUpstreamEvent, normalizeDate } from '../../src/import/upstream-event-mapper';

const conditionId = `0x${'ab'.repeat(32)}`;
const upstreamMarket = {
  id: '512345',
  question: 'Will the index close higher?',
  slug: 'index-close-higher',
  conditionId,
  outcomes: '["Yes", "No"]',
  clobTokenIds: '["1234567890123456789", "9876543210987654321"]',
  orderPriceMinTickSize: 0.001,
  orderMinSize: 5,
  negRisk: false,
  active: true,
  closed: false,
  acceptingOrders: false,
  endDate: '2027-01-01 00:00:00+00',
  feeSchedule: { rate: 0.04, exponent: 1, takerOnly: true, rebateRate: 0.25 },
};
const upstreamEvent = {
  id: '90001',
  slug: 'index-close',
  title: 'Index close',
  description: 'Resolves on the close.',
  endDate: '2027-01-01T00:00:00.000Z',
  tags: [{ id: '2', label: 'Finance', slug: 'finance' }, { id: '7', label: 'Stocks', slug: 'stocks' }],
  series: [{ id: '11', slug: 'daily-close', title: 'Daily close', recurrence: 'daily' }],
  markets: [upstreamMarket],
};

describe('mapUpstreamEvent', () => {
  it('keeps upstream ids as mirror ids and reads amounts into base units', () => {
    const mapped = mapUpstreamEvent(upstreamEvent, ['site-a']);
    if (!('event' in mapped)) throw new Error(mapped.skip);
    const { event } = mapped;
    expect(event).toMatchObject({ slug: 'index-close', mirrorId: '90001', category: 'finance', tags: ['finance', 'stocks'], sites: ['site-a'] });
    expect(event.series).toMatchObject({ slug: 'daily-close', title: 'Daily close', recurrence: 'daily' });
    expect(event.markets[0]).toMatchObject({
      slug: 'index-close-higher',
      tickSize: '0.001',
      minOrderSize: 5_000_000,
      mirrorConditionId: conditionId,
      mirrorTokenIds: ['1234567890123456789', '9876543210987654321'],
      feeSchedule: { rate: 40_000, exponent: 1, takerOnly: true, rebateRate: 250_000 },
      endDate: '2027-01-01T00:00:00.000Z',
      flags: { active: true, closed: false, archived: false, acceptingOrders: false },
    });
  });

  it.each([
    ['closed', { closed: true }, { closed: true, archived: false }],
    ['archived', { archived: true }, { closed: false, archived: true }],
  ])("closes or archives the markets of an event upstream has %s, as the operator's PATCH of an event does", (_name, eventFlags, marketFlags) => {
    const mapped = mapUpstreamEvent({ ...upstreamEvent, ...eventFlags, markets: [{ ...upstreamMarket, closed: false, archived: false }] }, []);
    if (!('event' in mapped)) throw new Error(mapped.skip);
    expect(mapped.event.flags).toMatchObject(eventFlags);
    expect(mapped.event.markets[0]!.flags).toMatchObject(marketFlags);
  });

  it.each([
    ['a tick size the exchange does not have', { orderPriceMinTickSize: 0.02 }, 'unsupported tick size'],
    ['outcomes that are not a JSON pair', { outcomes: '["A","B","C"]' }, 'outcomes must be a JSON array of two strings'],
    ['token ids that are not decimal', { clobTokenIds: '["0xabc","1"]' }, 'token ids must be decimal'],
    ['a token id above uint256', { clobTokenIds: `["${'9'.repeat(78)}","1"]` }, 'token ids must be decimal numbers below 2^256'],
    ['one token id for both outcomes', { clobTokenIds: '["1","1"]' }, 'both outcomes have token id 1'],
    ['a malformed condition id', { conditionId: '0x12' }, 'conditionId'],
    ['token ids that are not JSON', { clobTokenIds: 'not json' }, 'JSON'],
    // Imported until the twenty-first session, though an operator's event is refused for them (a probe).
    ['outcomes that differ only in case', { outcomes: '["Yes","yes"]' }, 'must differ in more than case'],
    ['outcomes holding a NUL', { outcomes: '["Yes\\u0000","No"]' }, 'NUL character'],
    ['an end date that is not a date', { endDate: '2027-13-45T99:99:99Z' }, 'market index-close-higher: endDate is not a date: "2027-13-45T99:99:99Z"'],
    ['a start date that is not a date', { startDate: 'soon' }, 'startDate is not a date'],
  ])('skips an event with %s, saying why', (_name, change, reason) => {
    const mapped = mapUpstreamEvent({ ...upstreamEvent, markets: [{ ...upstreamMarket, ...change }] }, []);
    expect('skip' in mapped && mapped.skip).toEqual(expect.stringContaining(reason));
  });

  it("skips an event whose own dates cannot be read, rather than put others in their place", () => {
    // The event's end date was the markets', its start the import's time (a probe).
    expect(mapUpstreamEvent({ ...upstreamEvent, endDate: 'not a date' }, [])).toEqual({ skip: 'endDate is not a date: "not a date"' });
    expect(mapUpstreamEvent({ ...upstreamEvent, startDate: 'garbage' }, [])).toEqual({ skip: 'startDate is not a date: "garbage"' });
    // Absent or empty is no date, as before.
    expect(mapUpstreamEvent({ ...upstreamEvent, startDate: '', endDate: null }, [])).toHaveProperty('event');
  });

  it('skips an event without markets or slug', () => {
    expect(mapUpstreamEvent({ ...upstreamEvent, markets: [] }, [])).toHaveProperty('skip');
    expect(mapUpstreamEvent({ ...upstreamEvent, slug: undefined }, [])).toHaveProperty('skip');
    expect(mapUpstreamEvent('nonsense', [])).toHaveProperty('skip');
  });

  it('maps every event of the shipped upstream fixture', () => {
    const fixture: unknown[] = JSON.parse(readFileSync(path.join(__dirname, '../fixtures/upstream-events.json'), 'utf8'));
    expect(fixture.length).toBeGreaterThanOrEqual(3);
    for (const raw of fixture) expect(mapUpstreamEvent(raw, [])).toHaveProperty('event');
  });
});

describe('normalizeDate', () => {
  it.each([
    ['2026-03-02T17:00:00Z', '2026-03-02T17:00:00.000Z'],
    ['2026-01-05T12:34:56.789Z', '2026-01-05T12:34:56.789Z'],
    ['2026-01-05 12:34:56+00', '2026-01-05T12:34:56.000Z'],
    ['2026-01-05', '2026-01-05T00:00:00.000Z'],
    ['2026-01-05T12:34:56+0130', '2026-01-05T11:04:56.000Z'],
    ['2026-01-05T12:34', '2026-01-05T12:34:00.000Z'],
    ['2024-02-29T00:00:00Z', '2024-02-29T00:00:00.000Z'],
  ])('reads %s', (input, expected) => {
    expect(normalizeDate(input, 'endDate')).toBe(expected);
  });

  it('reads absent as no date, and refuses what is not a date, naming it', () => {
    expect(normalizeDate(null, 'endDate')).toBeUndefined();
    expect(normalizeDate('', 'endDate')).toBeUndefined();
    expect(() => normalizeDate('soon', 'endDate')).toThrow('endDate is not a date: "soon"');
  });

  // JavaScript's own reading made dates of 2001 of these (a probe), and rolled February 31 into March.
  it.each(['1', '-1', '12', 'March 7', '2026-02-31', '2023-02-29T00:00:00Z', '2026-13-01', '2026-01-05T25:00:00Z', '20260105'])('refuses %s', (input) => {
    expect(() => normalizeDate(input, 'endDate')).toThrow(`endDate is not a date: ${JSON.stringify(input)}`);
  });
});
