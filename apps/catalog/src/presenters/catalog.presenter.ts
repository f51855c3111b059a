import {
  unitsAsNumber,
  type CatalogEvent,
  type CatalogEventListItem,
  type CatalogEventListMarket,
  type CatalogEventMarket,
  type CatalogEventSummary,
  type CatalogMarket,
  type Series as SeriesDto,
  type Tag as TagDto,
} from '@exchange/contracts';
import type { Event, Market, Series, Tag } from '../generated/prisma/client';
import type { EventListRow, EventWithDetail } from '../events/event.repository';
import { isAcceptingOrders } from '../outbox/snapshots';

/** Database rows to the wire shapes of SPEC.md: string ids, ISO 8601 UTC, JSON arrays as text. */

const iso = (date: Date) => date.toISOString();

export function presentTag(tag: Tag): TagDto {
  return {
    id: String(tag.id),
    label: tag.label,
    slug: tag.slug,
    createdAt: iso(tag.createdAt),
    updatedAt: iso(tag.updatedAt),
    requiresTranslation: tag.requiresTranslation,
  };
}

export function presentSeries(series: Series): SeriesDto {
  return {
    id: String(series.id),
    ticker: series.ticker,
    slug: series.slug,
    title: series.title,
    seriesType: series.seriesType,
    recurrence: series.recurrence,
    image: series.image,
    icon: series.icon,
    active: series.active,
    closed: series.closed,
    archived: series.archived,
    createdAt: iso(series.createdAt),
    updatedAt: iso(series.updatedAt),
  };
}

export function presentEventSummary(event: Event): CatalogEventSummary {
  return {
    id: String(event.id),
    ticker: event.ticker,
    slug: event.slug,
    title: event.title,
    description: event.description,
    resolutionSource: event.resolutionSource,
    image: event.image,
    icon: event.icon,
    startDate: iso(event.startDate),
    creationDate: iso(event.creationDate),
    endDate: iso(event.endDate),
    createdAt: iso(event.createdAt),
    updatedAt: iso(event.updatedAt),
    active: event.active,
    closed: event.closed,
    archived: event.archived,
  };
}

function presentListMarket(market: Market): CatalogEventListMarket {
  return {
    id: String(market.id),
    question: market.question,
    conditionId: market.conditionId,
    mirrorConditionId: market.mirrorConditionId,
    clobTokenIds: JSON.stringify(market.tokenIds),
    mirrorClobTokenIds: JSON.stringify(market.mirrorTokenIds),
  };
}

export function presentEventMarket(market: Market): CatalogEventMarket {
  return {
    ...presentListMarket(market),
    slug: market.slug,
    resolutionSource: market.resolutionSource,
    image: market.image,
    icon: market.icon,
    description: market.description,
    outcomes: JSON.stringify(market.outcomes),
    questionID: market.questionId,
    negRisk: market.negRisk,
    negRiskMarketID: market.negRiskMarketId,
    // What the engine is told (closed, inactive or archived markets take none), not the flag alone.
    acceptingOrders: isAcceptingOrders(market),
    orderPriceMinTickSize: unitsAsNumber(market.tickSize),
    orderMinSize: unitsAsNumber(Number(market.minOrderSize)),
    startDate: iso(market.startDate),
    endDate: iso(market.endDate),
    createdAt: iso(market.createdAt),
    updatedAt: iso(market.updatedAt),
    active: market.active,
    closed: market.closed,
    archived: market.archived,
  };
}

export function presentEvent(event: EventWithDetail): CatalogEvent {
  return {
    ...presentEventSummary(event),
    tags: event.tags.map((t) => presentTag(t.tag)),
    markets: event.markets.map(presentEventMarket),
    series: event.series.map((s) => presentSeries(s.series)),
    eventMetadata: (event.metadata ?? {}) as Record<string, unknown>,
  };
}

export function presentEventListItem(event: EventListRow): CatalogEventListItem {
  const { creationDate: _creationDate, ...summary } = presentEventSummary(event);
  return { ...summary, tags: event.tags.map((t) => presentTag(t.tag)), markets: event.markets.map(presentListMarket) };
}

export function presentMarket(market: Market & { event: Event }): CatalogMarket {
  return { ...presentEventMarket(market), events: [presentEventSummary(market.event)] };
}
