import type { MarketSnapshot } from '@exchange/contracts';

let marketIds = 0;
const hex = (n: number) => Array.from({ length: n }, () => Math.floor(Math.random() * 16).toString(16)).join('');
const tokenId = () => BigInt(`0x${hex(60)}`).toString();

/**
 * A market as the catalog publishes it (an open binary market with fees), for services that consume
 * the CATALOG stream; ids are fresh random hex of the right shape unless `overrides` names them.
 */
export function aMarketSnapshot(overrides: Partial<MarketSnapshot> = {}): MarketSnapshot {
  const id = ++marketIds;
  return {
    id,
    eventId: 100 + id,
    eventSlug: `event-${id}`,
    eventTitle: `Event ${id}`,
    eventTicker: `event-${id}`,
    eventDescription: 'An event.',
    category: 'politics',
    tags: ['politics'],
    slug: `market-${id}-${hex(8)}`,
    question: `Will ${id} happen?`,
    description: 'Resolves Yes if it happens.',
    conditionId: `0x${hex(64)}`,
    questionId: `0x${hex(64)}`,
    mirrorConditionId: '',
    outcomes: ['Yes', 'No'],
    tokenIds: [tokenId(), tokenId()],
    mirrorTokenIds: ['', ''],
    tickSizeUnits: 10_000,
    minOrderSizeUnits: 5_000_000,
    negRisk: false,
    negRiskMarketId: '',
    feeSchedule: { ratePpm: 40_000, exponent: 1, takerOnly: true, rebateRatePpm: 250_000 },
    active: true,
    closed: false,
    archived: false,
    acceptingOrders: true,
    endDate: '2027-01-01T00:00:00.000Z',
    startDate: '2026-01-01T00:00:00.000Z',
    icon: 'https://example.com/icon.png',
    image: 'https://example.com/image.png',
    sites: [],
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    ...overrides,
  };
}
