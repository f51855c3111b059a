import { createHash, randomBytes } from 'node:crypto';
import { toChecksumAddress } from '@exchange/chain';

/** Unique slugs per test, so that tests share a database without seeing each other's rows. */
export function uniqueSlug(base: string): string {
  return `${base}-${randomBytes(3).toString('hex')}`;
}

export function aMarket(overrides: Record<string, unknown> = {}) {
  return {
    question: 'Will it happen?',
    slug: uniqueSlug('will-it-happen'),
    outcomes: ['Yes', 'No'],
    tickSize: '0.01',
    minOrderSize: '5',
    negRisk: false,
    ...overrides,
  };
}

export function anEvent(overrides: Record<string, unknown> = {}) {
  return {
    title: 'An event',
    slug: uniqueSlug('an-event'),
    description: 'What it is about.',
    endDate: '2027-06-30T12:00:00Z',
    tags: ['Testing'],
    markets: [aMarket()],
    ...overrides,
  };
}

export const SITE_A = { id: 'site-a', name: 'Site A', creatorAddress: toChecksumAddress(`0x${'a1'.repeat(20)}`) };
export const SITE_B = { id: 'site-b', name: 'Site B', creatorAddress: toChecksumAddress(`0x${'b2'.repeat(20)}`) };

/** `levels` arrays one inside the other around a 1: JSON as deep as a client cares to send. */
export function nestedArrays(levels: number): unknown {
  let value: unknown = 1;
  for (let i = 0; i < levels; i++) value = [value];
  return value;
}

/**
 * A copy of an upstream market under a slug of its own and an upstream condition id of its own: an
 * import makes one local market per upstream market, and skips a second event naming the same one.
 */
export function upstreamMarketAs<M extends object>(market: M, slug: string, change: object = {}): M & { slug: string; conditionId: string } {
  return { ...market, slug, conditionId: `0x${createHash('sha256').update(slug).digest('hex')}`, ...change };
}
