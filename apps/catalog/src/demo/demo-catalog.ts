// The deterministic demo catalog (two sites, their events and markets) that DemoLoader loads on the
// first start with an empty database. Fixed data only: nothing here depends on the clock or on chance.
import type { CreateEventInput, CreateMarketInput, TickSize } from '@exchange/contracts';

type FeeSchedule = NonNullable<CreateMarketInput['feeSchedule']>;
type Series = NonNullable<CreateEventInput['series']>;
type Category = 'politics' | 'sports' | 'crypto' | 'finance' | 'culture' | 'mentions' | 'weather' | 'economics' | 'tech';

const ATLAS = 'atlas-markets';
const HARBOR = 'harbor-predictions';
const BOTH = [ATLAS, HARBOR];

export const demoSites: { id: string; name: string; creatorAddress: string }[] = [
  { id: ATLAS, name: 'Atlas Markets', creatorAddress: '0x3a7c5e9b1d2f4a6c8e0b1d3f5a7c9e1b2d4f6a80' },
  { id: HARBOR, name: 'Harbor Predictions', creatorAddress: '0x8b1e4d7a2c5f9e3b6d0a4c7e1f5b8d2a6c9e3f71' },
];

/** Taker fee and maker rebate per category, in ppm (40000 = 0.04, 250000 = 25%). */
const FEES: Record<Category, FeeSchedule> = {
  crypto: { rate: 70_000, exponent: 1, takerOnly: true, rebateRate: 200_000 },
  sports: { rate: 30_000, exponent: 1, takerOnly: true, rebateRate: 250_000 },
  politics: { rate: 40_000, exponent: 1, takerOnly: true, rebateRate: 250_000 },
  finance: { rate: 40_000, exponent: 1, takerOnly: true, rebateRate: 250_000 },
  mentions: { rate: 40_000, exponent: 1, takerOnly: true, rebateRate: 250_000 },
  tech: { rate: 40_000, exponent: 1, takerOnly: true, rebateRate: 250_000 },
  economics: { rate: 50_000, exponent: 1, takerOnly: true, rebateRate: 250_000 },
  culture: { rate: 50_000, exponent: 1, takerOnly: true, rebateRate: 250_000 },
  weather: { rate: 50_000, exponent: 1, takerOnly: true, rebateRate: 250_000 },
};

const SHARE = 1_000_000;

interface MarketOptions {
  outcomes?: [string, string];
  tickSize?: TickSize;
  /** Minimum order size in whole shares (default 5). */
  minShares?: number;
  negRisk?: boolean;
  /** Omitted: the market trades without fees. */
  fee?: FeeSchedule;
  description?: string;
}

function market(slug: string, question: string, o: MarketOptions = {}): CreateMarketInput {
  return {
    question,
    slug,
    outcomes: o.outcomes ?? ['Yes', 'No'],
    tickSize: o.tickSize ?? '0.01',
    minOrderSize: (o.minShares ?? 5) * SHARE,
    negRisk: o.negRisk ?? false,
    description: o.description ?? '',
    resolutionSource: '',
    image: '',
    icon: '',
    ...(o.fee ? { feeSchedule: o.fee } : {}),
  };
}

/** Independent Yes/No markets sharing the same options. */
const binaries = (o: MarketOptions, rows: [slug: string, question: string][]) =>
  rows.map(([slug, question]) => market(slug, question, o));

/** Mutually exclusive Yes/No markets: exactly one resolves Yes (neg risk). */
const exclusive = (o: MarketOptions, rows: [slug: string, question: string][]) =>
  rows.map(([slug, question]) => market(slug, question, { ...o, negRisk: true }));

interface EventSpec
  extends Omit<CreateEventInput, 'category' | 'resolutionSource' | 'image' | 'icon' | 'eventMetadata'> {
  category: Category;
  resolutionSource?: string;
  eventMetadata?: Record<string, unknown>;
}

function event(spec: EventSpec): CreateEventInput {
  return {
    ...spec,
    resolutionSource: spec.resolutionSource ?? '',
    image: '',
    icon: '',
    eventMetadata: spec.eventMetadata ?? {},
  };
}

const FED_SERIES: Series = {
  slug: 'fed-rate-decisions',
  title: 'Fed Rate Decisions',
  ticker: 'fed-rate-decisions',
  seriesType: 'single',
  recurrence: 'monthly',
  image: '',
  icon: '',
};

const NFL_SERIES: Series = {
  slug: 'nfl-weekly-games',
  title: 'NFL Weekly Games',
  ticker: 'nfl-weekly-games',
  seriesType: 'single',
  recurrence: 'weekly',
  image: '',
  icon: '',
};

/** One FOMC meeting: four mutually exclusive outcomes for the target rate. */
function fedDecision(month: string, year: number, endDate: string, startDate: string, sites: string[]): CreateEventInput {
  const m = month.toLowerCase();
  const meeting = `${month} ${year} meeting`;
  return event({
    title: `Fed decision in ${month} ${year}?`,
    slug: `fed-decision-in-${m}-${year}`,
    category: 'economics',
    tags: ['Fed', 'Interest Rates'],
    series: FED_SERIES,
    sites,
    startDate,
    endDate,
    resolutionSource: 'https://www.federalreserve.gov/monetarypolicy/fomccalendars.htm',
    description:
      `This event resolves on the change to the upper bound of the federal funds target range announced in the FOMC ` +
      `statement after the ${meeting}, compared with the level before it. If no statement is released by ${endDate.slice(0, 10)}, ` +
      `the "No change" market resolves Yes.`,
    markets: exclusive({ fee: FEES.economics, tickSize: '0.001' }, [
      [`fed-decreases-interest-rates-by-50-plus-bps-after-${m}-${year}-meeting`, `Fed decreases interest rates by 50+ bps after ${meeting}?`],
      [`fed-decreases-interest-rates-by-25-bps-after-${m}-${year}-meeting`, `Fed decreases interest rates by 25 bps after ${meeting}?`],
      [`no-change-in-fed-interest-rates-after-${m}-${year}-meeting`, `No change in Fed interest rates after ${meeting}?`],
      [`fed-increases-interest-rates-by-25-plus-bps-after-${m}-${year}-meeting`, `Fed increases interest rates by 25+ bps after ${meeting}?`],
    ]),
  });
}

interface Team {
  abbr: string;
  name: string;
  short: string;
}

/** One NFL game: moneyline, spread (home team favoured) and total points. */
function nflGame(week: number, away: Team, home: Team, date: string, kickoff: string, spread: number, total: number, sites: string[]): CreateEventInput {
  const slug = `nfl-${away.abbr}-${home.abbr}-${date}`;
  const line = (n: number) => String(n).replace('.', 'pt');
  const end = new Date(Date.parse(kickoff) + 7 * 86_400_000).toISOString().replace('.000Z', 'Z');
  return event({
    title: `${away.short} vs. ${home.short}`,
    slug,
    category: 'sports',
    tags: ['NFL', 'Football', 'Games'],
    series: NFL_SERIES,
    sites,
    startDate: new Date(Date.parse(kickoff) - 14 * 86_400_000).toISOString().replace('.000Z', 'Z'),
    endDate: end,
    resolutionSource: 'https://www.nfl.com/',
    eventMetadata: { league: 'NFL', season: 2027, week, kickoff },
    description:
      `The ${away.name} play the ${home.name} in week ${week} of the 2027 NFL regular season, kicking off ${kickoff}. ` +
      `Markets resolve on the official final score including overtime. If the game is postponed it stays open until ` +
      `played; if it is cancelled without a make-up date, or ends tied, the moneyline resolves 50-50.`,
    markets: [
      market(`${slug}-moneyline`, `${away.short} vs. ${home.short}`, { outcomes: [away.short, home.short], fee: FEES.sports }),
      market(`${slug}-spread-home-${line(spread)}`, `Spread: ${home.short} (-${spread})`, {
        outcomes: [home.short, away.short],
        fee: FEES.sports,
      }),
      market(`${slug}-total-${line(total)}`, `${away.short} vs. ${home.short}: O/U ${total}`, {
        outcomes: ['Over', 'Under'],
        fee: FEES.sports,
      }),
    ],
  });
}

const team = (abbr: string, name: string, short: string): Team => ({ abbr, name, short });

export const demoEvents: CreateEventInput[] = [
  // ---------------------------------------------------------------- politics
  event({
    title: 'Presidential Election Winner 2028',
    slug: 'presidential-election-winner-2028',
    category: 'politics',
    tags: ['Elections', 'US Election 2028'],
    sites: BOTH,
    startDate: '2026-01-05T15:00:00Z',
    endDate: '2028-11-07T12:00:00Z',
    resolutionSource: 'https://www.archives.gov/electoral-college',
    description:
      'This event resolves to the winner of the 2028 US presidential election, as projected by a consensus of the ' +
      'Associated Press, Fox News and NBC News. If no projection exists by inauguration day, it resolves to the person ' +
      'inaugurated as President on January 20, 2029.',
    markets: exclusive({ fee: FEES.politics, tickSize: '0.001' }, [
      ['will-jd-vance-win-the-2028-us-presidential-election', 'Will JD Vance win the 2028 US Presidential Election?'],
      ['will-gavin-newsom-win-the-2028-us-presidential-election', 'Will Gavin Newsom win the 2028 US Presidential Election?'],
      ['will-marco-rubio-win-the-2028-us-presidential-election', 'Will Marco Rubio win the 2028 US Presidential Election?'],
      ['will-josh-shapiro-win-the-2028-us-presidential-election', 'Will Josh Shapiro win the 2028 US Presidential Election?'],
      [
        'will-alexandria-ocasio-cortez-win-the-2028-us-presidential-election',
        'Will Alexandria Ocasio-Cortez win the 2028 US Presidential Election?',
      ],
      ['will-pete-buttigieg-win-the-2028-us-presidential-election', 'Will Pete Buttigieg win the 2028 US Presidential Election?'],
      ['will-another-person-win-the-2028-us-presidential-election', 'Will another person win the 2028 US Presidential Election?'],
    ]),
  }),
  event({
    title: 'Republican Presidential Nominee 2028',
    slug: 'republican-presidential-nominee-2028',
    category: 'politics',
    tags: ['Elections', 'US Election 2028', 'Republicans'],
    sites: [ATLAS],
    startDate: '2026-01-05T15:00:00Z',
    endDate: '2028-08-31T12:00:00Z',
    description:
      'This event resolves to the person formally nominated for President at the 2028 Republican National Convention. ' +
      'If no convention is held by August 31, 2028, it resolves to the presumptive nominee named by the RNC.',
    markets: exclusive({ fee: FEES.politics, tickSize: '0.001' }, [
      ['will-jd-vance-be-the-2028-republican-presidential-nominee', 'Will JD Vance be the 2028 Republican presidential nominee?'],
      ['will-marco-rubio-be-the-2028-republican-presidential-nominee', 'Will Marco Rubio be the 2028 Republican presidential nominee?'],
      [
        'will-donald-trump-jr-be-the-2028-republican-presidential-nominee',
        'Will Donald Trump Jr. be the 2028 Republican presidential nominee?',
      ],
      ['will-ron-desantis-be-the-2028-republican-presidential-nominee', 'Will Ron DeSantis be the 2028 Republican presidential nominee?'],
      ['will-another-person-be-the-2028-republican-presidential-nominee', 'Will another person be the 2028 Republican presidential nominee?'],
    ]),
  }),
  event({
    title: 'Democratic Presidential Nominee 2028',
    slug: 'democratic-presidential-nominee-2028',
    category: 'politics',
    tags: ['Elections', 'US Election 2028', 'Democrats'],
    sites: BOTH,
    startDate: '2026-01-05T15:00:00Z',
    endDate: '2028-08-31T12:00:00Z',
    description:
      'This event resolves to the person formally nominated for President at the 2028 Democratic National Convention. ' +
      'If no convention is held by August 31, 2028, it resolves to the presumptive nominee named by the DNC.',
    markets: exclusive({ fee: FEES.politics, tickSize: '0.001' }, [
      ['will-gavin-newsom-be-the-2028-democratic-presidential-nominee', 'Will Gavin Newsom be the 2028 Democratic presidential nominee?'],
      ['will-josh-shapiro-be-the-2028-democratic-presidential-nominee', 'Will Josh Shapiro be the 2028 Democratic presidential nominee?'],
      [
        'will-alexandria-ocasio-cortez-be-the-2028-democratic-presidential-nominee',
        'Will Alexandria Ocasio-Cortez be the 2028 Democratic presidential nominee?',
      ],
      ['will-pete-buttigieg-be-the-2028-democratic-presidential-nominee', 'Will Pete Buttigieg be the 2028 Democratic presidential nominee?'],
      ['will-wes-moore-be-the-2028-democratic-presidential-nominee', 'Will Wes Moore be the 2028 Democratic presidential nominee?'],
      ['will-another-person-be-the-2028-democratic-presidential-nominee', 'Will another person be the 2028 Democratic presidential nominee?'],
    ]),
  }),
  event({
    title: 'French Presidential Election 2027',
    slug: 'french-presidential-election-2027',
    category: 'politics',
    tags: ['Elections', 'France', 'Europe'],
    sites: [HARBOR],
    startDate: '2026-02-02T09:00:00Z',
    endDate: '2027-05-09T18:00:00Z',
    resolutionSource: 'https://www.conseil-constitutionnel.fr/',
    description:
      'This event resolves to the winner of the 2027 French presidential election as proclaimed by the Conseil ' +
      'constitutionnel. If the vote is postponed beyond May 9, 2027, the event stays open until a winner is proclaimed.',
    markets: exclusive({}, [
      ['will-jordan-bardella-win-the-2027-french-presidential-election', 'Will Jordan Bardella win the 2027 French presidential election?'],
      ['will-edouard-philippe-win-the-2027-french-presidential-election', 'Will Édouard Philippe win the 2027 French presidential election?'],
      ['will-gabriel-attal-win-the-2027-french-presidential-election', 'Will Gabriel Attal win the 2027 French presidential election?'],
      [
        'will-jean-luc-melenchon-win-the-2027-french-presidential-election',
        'Will Jean-Luc Mélenchon win the 2027 French presidential election?',
      ],
      ['will-another-person-win-the-2027-french-presidential-election', 'Will another person win the 2027 French presidential election?'],
    ]),
  }),

  // ---------------------------------------------------------------- sports
  nflGame(1, team('bal', 'Baltimore Ravens', 'Ravens'), team('kc', 'Kansas City Chiefs', 'Chiefs'), '2027-09-09', '2027-09-10T00:20:00Z', 2.5, 47.5, BOTH),
  nflGame(1, team('buf', 'Buffalo Bills', 'Bills'), team('phi', 'Philadelphia Eagles', 'Eagles'), '2027-09-12', '2027-09-12T20:25:00Z', 1.5, 49.5, [ATLAS]),
  nflGame(2, team('nyg', 'New York Giants', 'Giants'), team('dal', 'Dallas Cowboys', 'Cowboys'), '2027-09-19', '2027-09-20T00:20:00Z', 4.5, 44.5, BOTH),
  event({
    title: '2028 NBA Champion',
    slug: '2028-nba-champion',
    category: 'sports',
    tags: ['NBA', 'Basketball'],
    sites: BOTH,
    startDate: '2026-06-25T16:00:00Z',
    endDate: '2028-06-30T12:00:00Z',
    resolutionSource: 'https://www.nba.com/',
    description:
      'This event resolves to the team that wins the 2028 NBA Finals. If the 2027-28 season is cancelled or no champion ' +
      'is crowned by June 30, 2028, every market resolves No.',
    markets: exclusive({ fee: FEES.sports, tickSize: '0.001', minShares: 10 }, [
      ['will-the-oklahoma-city-thunder-win-the-2028-nba-finals', 'Will the Oklahoma City Thunder win the 2028 NBA Finals?'],
      ['will-the-new-york-knicks-win-the-2028-nba-finals', 'Will the New York Knicks win the 2028 NBA Finals?'],
      ['will-the-cleveland-cavaliers-win-the-2028-nba-finals', 'Will the Cleveland Cavaliers win the 2028 NBA Finals?'],
      ['will-the-denver-nuggets-win-the-2028-nba-finals', 'Will the Denver Nuggets win the 2028 NBA Finals?'],
      ['will-the-san-antonio-spurs-win-the-2028-nba-finals', 'Will the San Antonio Spurs win the 2028 NBA Finals?'],
      ['will-the-houston-rockets-win-the-2028-nba-finals', 'Will the Houston Rockets win the 2028 NBA Finals?'],
    ]),
  }),
  event({
    title: 'Champions League Winner 2026-27',
    slug: 'champions-league-winner-2026-27',
    category: 'sports',
    tags: ['Soccer', 'Champions League'],
    sites: [ATLAS],
    startDate: '2026-07-01T10:00:00Z',
    endDate: '2027-06-05T22:00:00Z',
    resolutionSource: 'https://www.uefa.com/uefachampionsleague/',
    description:
      'This event resolves to the club that wins the 2026-27 UEFA Champions League final, including extra time and ' +
      'penalties. If the final is not played by June 30, 2027, every market resolves No.',
    markets: exclusive({ fee: FEES.sports }, [
      ['will-real-madrid-win-the-2026-27-champions-league', 'Will Real Madrid win the 2026-27 Champions League?'],
      ['will-manchester-city-win-the-2026-27-champions-league', 'Will Manchester City win the 2026-27 Champions League?'],
      ['will-bayern-munich-win-the-2026-27-champions-league', 'Will Bayern Munich win the 2026-27 Champions League?'],
      ['will-arsenal-win-the-2026-27-champions-league', 'Will Arsenal win the 2026-27 Champions League?'],
      ['will-barcelona-win-the-2026-27-champions-league', 'Will Barcelona win the 2026-27 Champions League?'],
      ['will-paris-saint-germain-win-the-2026-27-champions-league', 'Will Paris Saint-Germain win the 2026-27 Champions League?'],
    ]),
  }),
  event({
    title: "Wimbledon 2027: Men's Singles Champion",
    slug: 'wimbledon-2027-mens-singles-champion',
    category: 'sports',
    tags: ['Tennis', 'Wimbledon'],
    sites: [HARBOR],
    endDate: '2027-07-11T20:00:00Z',
    resolutionSource: 'https://www.wimbledon.com/',
    description:
      "This event resolves to the winner of the gentlemen's singles final at Wimbledon 2027. A player who withdraws " +
      'or retires is treated as not winning.',
    markets: exclusive({}, [
      ['will-jannik-sinner-win-wimbledon-2027', 'Will Jannik Sinner win Wimbledon 2027?'],
      ['will-carlos-alcaraz-win-wimbledon-2027', 'Will Carlos Alcaraz win Wimbledon 2027?'],
      ['will-novak-djokovic-win-wimbledon-2027', 'Will Novak Djokovic win Wimbledon 2027?'],
      ['will-alexander-zverev-win-wimbledon-2027', 'Will Alexander Zverev win Wimbledon 2027?'],
      ['will-another-player-win-wimbledon-2027', 'Will another player win Wimbledon 2027?'],
    ]),
  }),

  // ---------------------------------------------------------------- crypto
  event({
    title: 'What price will Bitcoin hit in 2027?',
    slug: 'what-price-will-bitcoin-hit-in-2027',
    category: 'crypto',
    tags: ['Bitcoin', 'Crypto Prices'],
    sites: BOTH,
    startDate: '2026-12-15T17:00:00Z',
    endDate: '2027-12-31T23:59:59Z',
    resolutionSource: 'https://www.binance.com/en/trade/BTC_USDT',
    description:
      'Each market resolves Yes if any Binance BTC/USDT 1-minute candle between January 1, 2027 00:00 and December 31, ' +
      '2027 23:59 UTC has a high (for "reach") or a low (for "dip") at or beyond the price in its question.',
    markets: binaries({ fee: FEES.crypto }, [
      ['will-bitcoin-reach-150k-in-2027', 'Will Bitcoin reach $150,000 in 2027?'],
      ['will-bitcoin-reach-200k-in-2027', 'Will Bitcoin reach $200,000 in 2027?'],
      ['will-bitcoin-reach-250k-in-2027', 'Will Bitcoin reach $250,000 in 2027?'],
      ['will-bitcoin-dip-to-60k-in-2027', 'Will Bitcoin dip to $60,000 in 2027?'],
      ['will-bitcoin-dip-to-40k-in-2027', 'Will Bitcoin dip to $40,000 in 2027?'],
    ]),
  }),
  event({
    title: 'Ethereum price on December 31, 2027?',
    slug: 'ethereum-price-on-december-31-2027',
    category: 'crypto',
    tags: ['Ethereum', 'Crypto Prices'],
    sites: BOTH,
    endDate: '2027-12-31T17:00:00Z',
    resolutionSource: 'https://www.binance.com/en/trade/ETH_USDT',
    description:
      'This event resolves to the range containing the close of the Binance ETH/USDT 1-minute candle for 12:00 ET on ' +
      'December 31, 2027. A price exactly on a boundary belongs to the higher range.',
    markets: exclusive({ fee: FEES.crypto }, [
      ['ethereum-below-2000-on-dec-31-2027', 'Will Ethereum be below $2,000 on December 31, 2027?'],
      ['ethereum-between-2000-and-4000-on-dec-31-2027', 'Will Ethereum be between $2,000 and $4,000 on December 31, 2027?'],
      ['ethereum-between-4000-and-6000-on-dec-31-2027', 'Will Ethereum be between $4,000 and $6,000 on December 31, 2027?'],
      ['ethereum-between-6000-and-8000-on-dec-31-2027', 'Will Ethereum be between $6,000 and $8,000 on December 31, 2027?'],
      ['ethereum-above-8000-on-dec-31-2027', 'Will Ethereum be above $8,000 on December 31, 2027?'],
    ]),
  }),
  event({
    title: 'Will Strategy sell any Bitcoin in 2027?',
    slug: 'will-strategy-sell-any-bitcoin-in-2027',
    category: 'crypto',
    tags: ['Bitcoin', 'Strategy'],
    sites: [ATLAS],
    endDate: '2027-12-31T23:59:59Z',
    resolutionSource: 'https://www.strategy.com/purchases',
    description:
      'This market resolves Yes if Strategy (formerly MicroStrategy) discloses, in an SEC filing or official ' +
      'announcement, a sale of any of its Bitcoin holdings that took place in 2027. Transfers between its own wallets ' +
      'do not count.',
    markets: [
      market('strategy-sells-bitcoin-in-2027', 'Will Strategy sell any Bitcoin in 2027?', { fee: FEES.crypto, minShares: 10 }),
    ],
  }),
  event({
    title: 'Stablecoin market cap above $500B by end of 2027?',
    slug: 'stablecoin-market-cap-above-500b-by-end-of-2027',
    category: 'crypto',
    tags: ['Stablecoins'],
    sites: [HARBOR],
    endDate: '2027-12-31T23:59:59Z',
    resolutionSource: 'https://defillama.com/stablecoins',
    description:
      'This market resolves Yes if the total stablecoin market capitalisation shown by DefiLlama exceeds $500 billion ' +
      'on any day before December 31, 2027 23:59 UTC.',
    markets: [
      market('total-stablecoin-market-cap-above-500b-in-2027', 'Will total stablecoin market cap exceed $500B by the end of 2027?', {
        fee: FEES.crypto,
      }),
    ],
  }),

  // ---------------------------------------------------------------- finance
  event({
    title: 'Where will the S&P 500 close 2027?',
    slug: 'where-will-the-sp-500-close-2027',
    category: 'finance',
    tags: ['Stocks', 'S&P 500'],
    sites: BOTH,
    endDate: '2027-12-31T21:00:00Z',
    resolutionSource: 'https://www.spglobal.com/spdji/en/indices/equity/sp-500/',
    description:
      'Each market resolves Yes if the official closing value of the S&P 500 on the last trading day of 2027 is above ' +
      'the level in its question.',
    markets: binaries({ fee: FEES.finance }, [
      ['sp-500-closes-2027-above-6500', 'Will the S&P 500 close 2027 above 6,500?'],
      ['sp-500-closes-2027-above-7500', 'Will the S&P 500 close 2027 above 7,500?'],
      ['sp-500-closes-2027-above-8500', 'Will the S&P 500 close 2027 above 8,500?'],
    ]),
  }),
  event({
    title: 'Largest company by market cap at the end of 2027?',
    slug: 'largest-company-end-of-2027',
    category: 'finance',
    tags: ['Stocks', 'Big Tech'],
    sites: BOTH,
    startDate: '2026-03-02T14:30:00Z',
    endDate: '2027-12-31T21:00:00Z',
    resolutionSource: 'https://companiesmarketcap.com/',
    description:
      'This event resolves to the listed company with the largest market capitalisation at the close of the last ' +
      'trading day of 2027, according to companiesmarketcap.com.',
    markets: exclusive({ fee: FEES.finance, tickSize: '0.001' }, [
      ['nvidia-largest-company-end-of-2027', 'Will NVIDIA be the largest company in the world by market cap at the end of 2027?'],
      ['microsoft-largest-company-end-of-2027', 'Will Microsoft be the largest company in the world by market cap at the end of 2027?'],
      ['apple-largest-company-end-of-2027', 'Will Apple be the largest company in the world by market cap at the end of 2027?'],
      ['alphabet-largest-company-end-of-2027', 'Will Alphabet be the largest company in the world by market cap at the end of 2027?'],
      ['another-company-largest-company-end-of-2027', 'Will another company be the largest company in the world by market cap at the end of 2027?'],
    ]),
  }),
  event({
    title: 'Gold above $5,000 at the end of 2027?',
    slug: 'gold-above-5000-at-the-end-of-2027',
    category: 'finance',
    tags: ['Commodities', 'Gold'],
    sites: [ATLAS],
    endDate: '2027-12-31T20:00:00Z',
    resolutionSource: 'https://www.lbma.org.uk/prices-and-data/precious-metal-prices',
    description:
      'This market resolves Yes if the last LBMA Gold Price PM of 2027 is above $5,000 per troy ounce.',
    markets: [market('gold-closes-2027-above-5000', 'Will gold close 2027 above $5,000/oz?', { fee: FEES.finance, minShares: 15 })],
  }),
  event({
    title: 'SpaceX IPO by the end of 2027?',
    slug: 'spacex-ipo-by-the-end-of-2027',
    category: 'finance',
    tags: ['IPOs', 'SpaceX'],
    sites: [],
    endDate: '2027-12-31T23:59:59Z',
    description:
      'This market resolves Yes if SpaceX shares begin trading on a public stock exchange by December 31, 2027. A ' +
      'filing alone, or a listing of Starlink alone, does not count.',
    markets: [market('spacex-ipo-in-2027', 'Will SpaceX go public by the end of 2027?', { fee: FEES.finance })],
  }),

  // ---------------------------------------------------------------- economics
  fedDecision('January', 2027, '2027-01-27T19:00:00Z', '2026-11-01T14:00:00Z', BOTH),
  fedDecision('March', 2027, '2027-03-17T18:00:00Z', '2027-01-28T14:00:00Z', BOTH),
  fedDecision('April', 2027, '2027-04-28T18:00:00Z', '2027-03-18T14:00:00Z', [HARBOR]),
  event({
    title: 'US recession in 2027?',
    slug: 'us-recession-in-2027',
    category: 'economics',
    tags: ['Recession', 'US Economy'],
    sites: BOTH,
    startDate: '2026-01-12T16:00:00Z',
    endDate: '2028-01-31T12:00:00Z',
    resolutionSource: 'https://www.bea.gov/data/gdp/gross-domestic-product',
    description:
      'This market resolves Yes if the BEA advance estimates show two consecutive quarters of negative real GDP growth ' +
      'within 2027, or if the NBER announces a recession that began in 2027, by January 31, 2028.',
    markets: [market('us-recession-2027', 'US recession in 2027?', { fee: FEES.economics })],
  }),
  event({
    title: 'US inflation for December 2027 (CPI, year over year)',
    slug: 'us-inflation-december-2027',
    category: 'economics',
    tags: ['Inflation', 'CPI'],
    sites: [ATLAS],
    endDate: '2028-01-13T13:30:00Z',
    resolutionSource: 'https://www.bls.gov/cpi/',
    description:
      'This event resolves to the range containing the unadjusted 12-month change in CPI-U for December 2027, as first ' +
      'published by the Bureau of Labor Statistics, rounded to one decimal.',
    markets: exclusive({ fee: FEES.economics }, [
      ['us-cpi-yoy-december-2027-2pt0-or-lower', 'Will annual US inflation for December 2027 be 2.0% or lower?'],
      ['us-cpi-yoy-december-2027-2pt1-to-2pt5', 'Will annual US inflation for December 2027 be between 2.1% and 2.5%?'],
      ['us-cpi-yoy-december-2027-2pt6-to-3pt0', 'Will annual US inflation for December 2027 be between 2.6% and 3.0%?'],
      ['us-cpi-yoy-december-2027-3pt1-to-3pt5', 'Will annual US inflation for December 2027 be between 3.1% and 3.5%?'],
      ['us-cpi-yoy-december-2027-above-3pt5', 'Will annual US inflation for December 2027 be above 3.5%?'],
    ]),
  }),

  // ---------------------------------------------------------------- culture
  event({
    title: 'Highest grossing movie of 2027?',
    slug: 'highest-grossing-movie-of-2027',
    category: 'culture',
    tags: ['Movies', 'Box Office'],
    sites: BOTH,
    endDate: '2028-01-31T12:00:00Z',
    resolutionSource: 'https://www.boxofficemojo.com/year/world/2027/',
    description:
      'This event resolves to the film with the highest worldwide gross among films released in 2027, according to Box ' +
      'Office Mojo on January 31, 2028.',
    markets: exclusive({ fee: FEES.culture }, [
      ['avengers-secret-wars-highest-grossing-movie-2027', 'Will Avengers: Secret Wars be the highest grossing movie of 2027?'],
      ['the-batman-part-ii-highest-grossing-movie-2027', 'Will The Batman Part II be the highest grossing movie of 2027?'],
      ['shrek-5-highest-grossing-movie-2027', 'Will Shrek 5 be the highest grossing movie of 2027?'],
      ['frozen-iii-highest-grossing-movie-2027', 'Will Frozen III be the highest grossing movie of 2027?'],
      ['another-movie-highest-grossing-movie-2027', 'Will another movie be the highest grossing movie of 2027?'],
    ]),
  }),
  event({
    title: 'Time Person of the Year 2027',
    slug: 'time-person-of-the-year-2027',
    category: 'culture',
    tags: ['Time', 'Awards'],
    sites: [HARBOR],
    endDate: '2027-12-15T12:00:00Z',
    resolutionSource: 'https://time.com/person-of-the-year/',
    description:
      'This event resolves to the person named Time Person of the Year 2027. A group or a non-person resolves the ' +
      '"another person or group" market Yes; a shared title resolves Yes for each person named.',
    markets: exclusive({}, [
      ['donald-trump-time-person-of-the-year-2027', 'Will Donald Trump be named Time Person of the Year 2027?'],
      ['pope-leo-xiv-time-person-of-the-year-2027', 'Will Pope Leo XIV be named Time Person of the Year 2027?'],
      ['elon-musk-time-person-of-the-year-2027', 'Will Elon Musk be named Time Person of the Year 2027?'],
      ['sam-altman-time-person-of-the-year-2027', 'Will Sam Altman be named Time Person of the Year 2027?'],
      ['jensen-huang-time-person-of-the-year-2027', 'Will Jensen Huang be named Time Person of the Year 2027?'],
      ['another-person-or-group-time-person-of-the-year-2027', 'Will another person or group be named Time Person of the Year 2027?'],
    ]),
  }),
  event({
    title: 'Top Spotify artist of 2027',
    slug: 'top-spotify-artist-of-2027',
    category: 'culture',
    tags: ['Music', 'Spotify'],
    sites: [ATLAS],
    endDate: '2027-12-10T12:00:00Z',
    resolutionSource: 'https://newsroom.spotify.com/',
    description:
      "This event resolves to the artist Spotify names as its most-streamed artist globally in its 2027 Wrapped " +
      'announcement. If none is published by December 10, 2027, it resolves by Spotify Charts data for 2027.',
    markets: exclusive({ fee: FEES.culture }, [
      ['taylor-swift-top-spotify-artist-2027', 'Will Taylor Swift be the top Spotify artist of 2027?'],
      ['bad-bunny-top-spotify-artist-2027', 'Will Bad Bunny be the top Spotify artist of 2027?'],
      ['the-weeknd-top-spotify-artist-2027', 'Will The Weeknd be the top Spotify artist of 2027?'],
      ['sabrina-carpenter-top-spotify-artist-2027', 'Will Sabrina Carpenter be the top Spotify artist of 2027?'],
      ['another-artist-top-spotify-artist-2027', 'Will another artist be the top Spotify artist of 2027?'],
    ]),
  }),

  // ---------------------------------------------------------------- mentions
  event({
    title: 'What will the Fed Chair say at the March 2027 press conference?',
    slug: 'what-will-the-fed-chair-say-march-2027-press-conference',
    category: 'mentions',
    tags: ['Fed', 'Press Conferences'],
    sites: BOTH,
    endDate: '2027-03-17T20:00:00Z',
    resolutionSource: 'https://www.federalreserve.gov/monetarypolicy/fomcpresconf20270317.htm',
    description:
      'Each market resolves Yes if the Fed Chair says the word or phrase in its question during the press conference ' +
      'after the March 2027 FOMC meeting, including the Q&A. Plurals and possessives count; other forms do not.',
    markets: binaries({ fee: FEES.mentions }, [
      ['fed-chair-says-recession-march-2027', 'Will the Fed Chair say "Recession" during the March 2027 press conference?'],
      ['fed-chair-says-tariff-march-2027', 'Will the Fed Chair say "Tariff" during the March 2027 press conference?'],
      ['fed-chair-says-artificial-intelligence-march-2027', 'Will the Fed Chair say "Artificial Intelligence" during the March 2027 press conference?'],
      ['fed-chair-says-soft-landing-march-2027', 'Will the Fed Chair say "Soft Landing" during the March 2027 press conference?'],
      ['fed-chair-says-stagflation-march-2027', 'Will the Fed Chair say "Stagflation" during the March 2027 press conference?'],
    ]),
  }),
  event({
    title: 'What will Trump say during the 2028 State of the Union?',
    slug: 'what-will-trump-say-during-the-2028-state-of-the-union',
    category: 'mentions',
    tags: ['Trump', 'State of the Union'],
    sites: [ATLAS],
    endDate: '2028-03-15T05:00:00Z',
    resolutionSource: 'https://www.whitehouse.gov/',
    description:
      'Each market resolves Yes if Donald Trump says the word in its question during his 2028 State of the Union ' +
      'address. If no address is delivered by March 14, 2028, every market resolves No.',
    markets: binaries({ fee: FEES.mentions, minShares: 10 }, [
      ['trump-says-crypto-2028-state-of-the-union', 'Will Trump say "Crypto" during the 2028 State of the Union?'],
      ['trump-says-biden-2028-state-of-the-union', 'Will Trump say "Biden" during the 2028 State of the Union?'],
      ['trump-says-tariff-2028-state-of-the-union', 'Will Trump say "Tariff" during the 2028 State of the Union?'],
      ['trump-says-border-2028-state-of-the-union', 'Will Trump say "Border" during the 2028 State of the Union?'],
      ['trump-says-ai-2028-state-of-the-union', 'Will Trump say "AI" during the 2028 State of the Union?'],
    ]),
  }),

  // ---------------------------------------------------------------- weather
  event({
    title: 'Will 2027 be the hottest year on record?',
    slug: 'will-2027-be-the-hottest-year-on-record',
    category: 'weather',
    tags: ['Climate', 'Global Temperature'],
    sites: BOTH,
    endDate: '2028-01-20T12:00:00Z',
    resolutionSource: 'https://www.ncei.noaa.gov/access/monitoring/global/',
    description:
      'This market resolves Yes if NOAA\'s annual global climate report ranks 2027 as the warmest year in its record. ' +
      'If the report is not out by January 20, 2028, the NASA GISTEMP ranking is used.',
    markets: [market('2027-hottest-year-on-record', 'Will 2027 be the hottest year on record?', { fee: FEES.weather })],
  }),
  event({
    title: 'How many Atlantic hurricanes in 2027?',
    slug: 'how-many-atlantic-hurricanes-in-2027',
    category: 'weather',
    tags: ['Hurricanes'],
    sites: [HARBOR],
    endDate: '2027-11-30T23:59:59Z',
    resolutionSource: 'https://www.nhc.noaa.gov/',
    description:
      'This event resolves to the number of Atlantic hurricanes in the 2027 season as reported by the National ' +
      'Hurricane Center on November 30, 2027.',
    markets: exclusive({ fee: FEES.weather }, [
      ['atlantic-hurricanes-2027-5-or-fewer', 'Will there be 5 or fewer Atlantic hurricanes in 2027?'],
      ['atlantic-hurricanes-2027-6-or-7', 'Will there be 6 or 7 Atlantic hurricanes in 2027?'],
      ['atlantic-hurricanes-2027-8-or-9', 'Will there be 8 or 9 Atlantic hurricanes in 2027?'],
      ['atlantic-hurricanes-2027-10-or-more', 'Will there be 10 or more Atlantic hurricanes in 2027?'],
    ]),
  }),
  event({
    title: 'Highest temperature in NYC on July 4, 2027?',
    slug: 'highest-temperature-in-nyc-on-july-4-2027',
    category: 'weather',
    tags: ['NYC', 'Temperature'],
    sites: BOTH,
    startDate: '2027-06-27T12:00:00Z',
    endDate: '2027-07-05T04:00:00Z',
    resolutionSource: 'https://www.weather.gov/wrh/climate?wfo=okx',
    description:
      'This event resolves to the range containing the highest temperature recorded at Central Park on July 4, 2027, in ' +
      'whole degrees Fahrenheit, as published by the National Weather Service.',
    markets: exclusive({ fee: FEES.weather }, [
      ['nyc-high-july-4-2027-80f-or-below', 'Will the highest temperature in NYC on July 4, 2027 be 80°F or below?'],
      ['nyc-high-july-4-2027-81-to-85f', 'Will the highest temperature in NYC on July 4, 2027 be between 81°F and 85°F?'],
      ['nyc-high-july-4-2027-86-to-90f', 'Will the highest temperature in NYC on July 4, 2027 be between 86°F and 90°F?'],
      ['nyc-high-july-4-2027-91f-or-higher', 'Will the highest temperature in NYC on July 4, 2027 be 91°F or higher?'],
    ]),
  }),

  // ---------------------------------------------------------------- tech
  event({
    title: 'Which company has the best AI model end of 2027?',
    slug: 'which-company-has-the-best-ai-model-end-of-2027',
    category: 'tech',
    tags: ['AI', 'LLMs'],
    sites: BOTH,
    startDate: '2026-12-01T17:00:00Z',
    endDate: '2027-12-31T23:59:59Z',
    resolutionSource: 'https://lmarena.ai/leaderboard/text',
    description:
      'This event resolves to the company owning the top model on the LMArena text leaderboard (style control on) at ' +
      'December 31, 2027 12:00 ET. A tie resolves to the company whose model was listed first.',
    markets: exclusive({ fee: FEES.tech, tickSize: '0.001' }, [
      ['openai-best-ai-model-end-of-2027', 'Will OpenAI have the best AI model at the end of 2027?'],
      ['google-best-ai-model-end-of-2027', 'Will Google have the best AI model at the end of 2027?'],
      ['anthropic-best-ai-model-end-of-2027', 'Will Anthropic have the best AI model at the end of 2027?'],
      ['xai-best-ai-model-end-of-2027', 'Will xAI have the best AI model at the end of 2027?'],
      ['deepseek-best-ai-model-end-of-2027', 'Will DeepSeek have the best AI model at the end of 2027?'],
      ['another-company-best-ai-model-end-of-2027', 'Will another company have the best AI model at the end of 2027?'],
    ]),
  }),
  event({
    title: 'Foldable iPhone released by June 30, 2027?',
    slug: 'foldable-iphone-released-by-june-30-2027',
    category: 'tech',
    tags: ['Apple', 'Smartphones'],
    sites: [ATLAS],
    endDate: '2027-06-30T23:59:59Z',
    resolutionSource: 'https://www.apple.com/newsroom/',
    description:
      'This market resolves Yes if Apple makes a foldable iPhone available to buy in the United States by June 30, ' +
      '2027. Announcements and pre-orders without shipments do not count.',
    markets: [market('foldable-iphone-by-june-30-2027', 'Will Apple release a foldable iPhone by June 30, 2027?', { fee: FEES.tech })],
  }),
  event({
    title: 'OpenAI announces IPO by the end of 2027?',
    slug: 'openai-announces-ipo-by-the-end-of-2027',
    category: 'tech',
    tags: ['OpenAI', 'AI', 'IPOs'],
    sites: [],
    endDate: '2027-12-31T23:59:59Z',
    description:
      'This market resolves Yes if OpenAI publicly files a registration statement for an initial public offering, or ' +
      'officially announces one, by December 31, 2027.',
    markets: [market('openai-ipo-announced-in-2027', 'Will OpenAI announce an IPO by the end of 2027?', { fee: FEES.tech })],
  }),
];
