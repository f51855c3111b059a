import {
  createEventInput,
  getMarketRequest,
  listEventsRequest,
  listTagsRequest,
  patchMarketInput,
  publicSearchRequest,
} from '../src';

const parse = (query: Record<string, unknown>) => listEventsRequest.safeParse(query);

describe('GET /events query', () => {
  it('applies the defaults of SPEC.md', () => {
    expect(listEventsRequest.parse({})).toEqual({ limit: 20, offset: 0, ascending: false });
  });

  it.each([
    ['limit', '1', true],
    ['limit', '100', true],
    ['limit', '0', false],
    ['limit', '101', false],
    ['limit', '-1', false],
    ['limit', '2.5', false],
    ['limit', 'ten', false],
    ['offset', '0', true],
    ['offset', '-1', false],
    ['offset', '99999', true],
    ['active', 'true', true],
    ['active', 'yes', false],
    ['closed', 'false', true],
    ['archived', '1', false],
    ['ascending', 'true', true],
    ['ascending', 'TRUE', false],
    ['tag_id', '3', true],
    ['tag_id', 'politics', false],
    ['order', 'startDate', true],
    ['order', 'volume,endDate', true],
    ['order', 'start_date', false],
    ['order', 'password', false],
    ['creator', '0x1111111111111111111111111111111111111111', true],
    ['creator', 'atlas-markets', true],
    ['creator', 'not a site!', false],
  ])('%s=%s valid: %s', (name, value, valid) => {
    expect(parse({ [name]: value }).success).toBe(valid);
  });

  it('refuses a repeated scalar parameter, saying so', () => {
    expect(parse({ limit: ['1', '2'] }).error?.issues[0]?.message).toBe('limit must be given once');
    expect(parse({ closed: ['true', 'false'] }).error?.issues[0]?.message).toBe('closed must be given once');
    expect(parse({ slug: ['a', 'b'] }).error?.issues[0]?.message).toBe('slug must be a single string');
  });

  it('says a required text parameter is missing', () => {
    expect(publicSearchRequest.safeParse({}).error?.issues[0]?.message).toBe('q is required');
  });

  it("reads upstream's array filters given once or repeated, each value checked", () => {
    expect(listEventsRequest.parse({ id: '7' }).id).toEqual([7]);
    expect(listEventsRequest.parse({ 'id[]': ['7', '9'], 'slug[]': 'a' })).toMatchObject({ 'id[]': [7, 9], 'slug[]': ['a'] });
    expect(parse({ id: ['7', 'x'] }).success).toBe(false);
    expect(parse({ 'id[]': Array.from({ length: 101 }, (_, i) => String(i + 1)) }).success).toBe(false);
  });

  it('reads typed values as services receive them', () => {
    expect(listEventsRequest.parse({ limit: 5, active: true, order: 'id' })).toMatchObject({ limit: 5, active: true, order: ['id'] });
    // A repeated parameter arrives as an array: refused, as every repeated parameter is.
    expect(listEventsRequest.safeParse({ order: ['title', 'id'] }).error?.issues[0]?.message).toBe('order must be given once, as a comma list');
  });

  it('names the field in the message', () => {
    const result = parse({ limit: '500' });
    expect(result.success || result.error.issues[0]!.message).toBe('limit must be <= 100');
  });
});

describe('other catalog queries', () => {
  it('GET /markets/{id} takes a numeric id or a condition id', () => {
    expect(getMarketRequest.safeParse({ id: '99999999999999999999999' }).error?.issues[0]?.message).toBe(
      'id must be a numeric market id (1 to 2147483647) or a 0x condition id',
    );
    expect(getMarketRequest.safeParse({ id: '12' }).success).toBe(true);
    expect(getMarketRequest.safeParse({ id: `0x${'ab'.repeat(32)}` }).success).toBe(true);
    expect(getMarketRequest.safeParse({ id: '0x12' }).success).toBe(false);
    expect(getMarketRequest.safeParse({ id: 'abc' }).success).toBe(false);
    expect(getMarketRequest.safeParse({ id: '0' }).success).toBe(false);
    expect(getMarketRequest.safeParse({ id: '99999999999' }).success).toBe(false);
  });

  it('GET /tags bounds and order', () => {
    expect(listTagsRequest.parse({})).toEqual({ limit: 100, offset: 0, ascending: true });
    expect(listTagsRequest.safeParse({ limit: '501' }).success).toBe(false);
    expect(listTagsRequest.safeParse({ order: 'label' }).success).toBe(true);
    expect(listTagsRequest.safeParse({ order: 'color' }).success).toBe(false);
  });

  it('GET /public-search needs q', () => {
    expect(publicSearchRequest.safeParse({}).success).toBe(false);
    expect(publicSearchRequest.safeParse({ q: '' }).success).toBe(false);
    expect(publicSearchRequest.safeParse({ q: 'x'.repeat(201) }).success).toBe(false);
    expect(publicSearchRequest.parse({ q: 'fed' })).toMatchObject({ q: 'fed', limit_per_type: 10, page: 1 });
  });
});

describe('operator bodies', () => {
  const market = { question: 'Will it rain?', slug: 'will-it-rain', outcomes: ['Yes', 'No'], tickSize: '0.01', minOrderSize: '5', negRisk: false };
  const event = { title: 'Rain', slug: 'rain', description: 'd', endDate: '2027-01-01T00:00:00Z', tags: ['Weather'], markets: [market] };

  it('reads sizes and fees into integer base units', () => {
    const parsed = createEventInput.parse({
      ...event,
      markets: [{ ...market, minOrderSize: '2.5', feeSchedule: { rate: '0.04', exponent: 1, takerOnly: true, rebateRate: 0.25 } }],
    });
    expect(parsed.markets[0]!.minOrderSize).toBe(2_500_000);
    expect(parsed.markets[0]!.feeSchedule).toEqual({ rate: 40_000, exponent: 1, takerOnly: true, rebateRate: 250_000 });
  });

  it.each([
    ['an unknown tick size', { tickSize: '0.02' }],
    ['a size finer than 0.01 share', { minOrderSize: '5.001' }],
    ['a zero size', { minOrderSize: '0' }],
    ['three outcomes', { outcomes: ['A', 'B', 'C'] }],
    ['an uppercase slug', { slug: 'Will-It' }],
    ['a fee rate above 1', { feeSchedule: { rate: 1.5 } }],
    ['a fee rate with 7 decimals', { feeSchedule: { rate: '0.0000001' } }],
  ])('refuses %s', (_name, change) => {
    expect(createEventInput.safeParse({ ...event, markets: [{ ...market, ...change }] }).success).toBe(false);
  });

  it('refuses an event without markets or with a bad date', () => {
    expect(createEventInput.safeParse({ ...event, markets: [] }).success).toBe(false);
    expect(createEventInput.safeParse({ ...event, endDate: 'tomorrow' }).success).toBe(false);
  });

  it('needs a flag in a market patch and refuses unknown fields', () => {
    expect(patchMarketInput.safeParse({}).success).toBe(false);
    expect(patchMarketInput.safeParse({ closed: true }).success).toBe(true);
    expect(patchMarketInput.safeParse({ closed: true, question: 'x' }).success).toBe(false);
    expect(patchMarketInput.safeParse({ closed: 'yes' }).success).toBe(false);
  });
});
