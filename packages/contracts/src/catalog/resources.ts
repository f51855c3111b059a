/** Catalog resources exactly as SPEC.md shows them on the wire (camelCase, ISO 8601 UTC strings). */

export interface Tag {
  id: string;
  label: string;
  slug: string;
  createdAt: string;
  updatedAt: string;
  requiresTranslation: boolean;
}

export interface Series {
  id: string;
  ticker: string;
  slug: string;
  title: string;
  seriesType: string;
  recurrence: string;
  image: string;
  icon: string;
  active: boolean;
  closed: boolean;
  archived: boolean;
  createdAt: string;
  updatedAt: string;
}

interface Flags {
  active: boolean;
  closed: boolean;
  archived: boolean;
}

export interface CatalogEventSummary extends Flags {
  id: string;
  ticker: string;
  slug: string;
  title: string;
  description: string;
  resolutionSource: string;
  image: string;
  icon: string;
  startDate: string;
  creationDate: string;
  endDate: string;
  createdAt: string;
  updatedAt: string;
}

/** A market inside a catalog event (GET /events/{id}). */
export interface CatalogEventMarket extends Flags {
  id: string;
  question: string;
  conditionId: string;
  mirrorConditionId: string;
  slug: string;
  resolutionSource: string;
  image: string;
  icon: string;
  description: string;
  /** JSON array of outcome names, serialized as text. */
  outcomes: string;
  /** JSON array of token-id strings, serialized as text. */
  clobTokenIds: string;
  mirrorClobTokenIds: string;
  questionID: string;
  /** Upstream Gamma's fields, beyond SPEC.md's: clients pick the exchange to sign for from them. */
  negRisk: boolean;
  /** The id shared by the markets of a neg-risk event; "" for a standard market. */
  negRiskMarketID: string;
  acceptingOrders: boolean;
  /** The tick and the minimum order size (shares), as numbers, as upstream Gamma has them. */
  orderPriceMinTickSize: number;
  orderMinSize: number;
  startDate: string;
  endDate: string;
  createdAt: string;
  updatedAt: string;
}

/** GET /markets/{id}, catalog form. */
export interface CatalogMarket extends CatalogEventMarket {
  events: CatalogEventSummary[];
}

/** GET /events/{id} and GET /events/slug/{slug}. */
export interface CatalogEvent extends CatalogEventSummary {
  tags: Tag[];
  markets: CatalogEventMarket[];
  series: Series[];
  eventMetadata: Record<string, unknown>;
}

export interface CatalogEventListMarket {
  id: string;
  question: string;
  conditionId: string;
  mirrorConditionId: string;
  clobTokenIds: string;
  mirrorClobTokenIds: string;
}

/** An element of GET /events: no creationDate, series or eventMetadata. */
export interface CatalogEventListItem extends Omit<CatalogEventSummary, 'creationDate'> {
  tags: Tag[];
  markets: CatalogEventListMarket[];
}

export interface SearchTag {
  id: string;
  label: string;
  slug: string;
  event_count: number;
}

export interface PublicSearchResult {
  events: CatalogEventListItem[];
  tags: SearchTag[];
  profiles: SearchProfile[];
  pagination: { hasMore: boolean; totalResults: number };
}

/** A profile in public search: a site's creator, the catalog's own notion of a public profile. */
export interface SearchProfile {
  id: string;
  name: string;
  pseudonym: string;
  proxyWallet: string;
  profileImage: string;
  bio: string;
}

export interface Site {
  id: string;
  name: string;
  creatorAddress: string;
  createdAt: string;
}

/**
 * An import and what it did so far. `running` until every event was tried (`done`); `interrupted` when
 * the catalog stopped or lost its database on the way, `error` saying why (the same file imported again
 * skips what was created and tries the rest).
 */
export interface ImportReport {
  id: string;
  status: 'running' | 'done' | 'interrupted';
  /** The events of the request; `created` and `skipped` add up to it once done. */
  total: number;
  created: { eventId: string; slug: string; markets: number }[];
  skipped: { slug: string; reason: string }[];
  startedAt: string;
  finishedAt: string | null;
  error?: string;
}
