import { Injectable } from '@nestjs/common';
import type { EventOrderColumn, ListEventsRequest } from '@exchange/contracts';
import type { Prisma } from '../generated/prisma/client';
import { escapeLike } from '../prisma/like';
import { PrismaService } from '../prisma/prisma.service';

/** Markets a site may see; no filter without a site. */
export function visibleMarkets(siteId: string | undefined): Prisma.MarketWhereInput {
  return siteId ? { sites: { some: { siteId } } } : {};
}

const eventDetail = (siteId: string | undefined) =>
  ({
    tags: { orderBy: { position: 'asc' }, include: { tag: true } },
    series: { orderBy: { seriesId: 'asc' }, include: { series: true } },
    markets: { where: visibleMarkets(siteId), orderBy: [{ position: 'asc' }, { id: 'asc' }] },
  }) satisfies Prisma.EventInclude;

const eventListItem = (siteId: string | undefined) =>
  ({
    tags: { orderBy: { position: 'asc' }, include: { tag: true } },
    markets: { where: visibleMarkets(siteId), orderBy: [{ position: 'asc' }, { id: 'asc' }] },
  }) satisfies Prisma.EventInclude;

export type EventWithDetail = Prisma.EventGetPayload<{ include: ReturnType<typeof eventDetail> }>;
export type EventListRow = Prisma.EventGetPayload<{ include: ReturnType<typeof eventListItem> }>;

export interface EventFilter {
  active?: boolean;
  closed?: boolean;
  archived?: boolean;
  tagSlugs: string[];
  tagId?: number;
  seriesSlug?: string;
  slug?: string;
  /** Any of these ids (upstream's `id[]`); none given: no such filter. */
  ids?: number[];
  /** Any of these slugs (upstream's `slug[]`). */
  slugs?: string[];
  siteId?: string;
  /** Text search over title, slug and description. */
  text?: string;
}

const ORDER_FIELDS: Record<EventOrderColumn, keyof Prisma.EventOrderByWithRelationInput> = {
  id: 'id',
  title: 'title',
  slug: 'slug',
  startDate: 'startDate',
  endDate: 'endDate',
  createdAt: 'createdAt',
  updatedAt: 'updatedAt',
  volume: 'volume',
  liquidity: 'liquidity',
};

function where(filter: EventFilter): Prisma.EventWhereInput {
  const and: Prisma.EventWhereInput[] = filter.tagSlugs.map((slug) => ({ tags: { some: { tag: { slug } } } }));
  if (filter.tagId !== undefined) and.push({ tags: { some: { tagId: filter.tagId } } });
  if (filter.ids?.length) and.push({ id: { in: filter.ids } });
  if (filter.slugs?.length) and.push({ slug: { in: filter.slugs } });
  if (filter.text) {
    const like = escapeLike(filter.text);
    and.push({
      OR: [
        { title: { contains: like, mode: 'insensitive' } },
        { slug: { contains: like, mode: 'insensitive' } },
        { description: { contains: like, mode: 'insensitive' } },
        { markets: { some: { question: { contains: like, mode: 'insensitive' } } } },
      ],
    });
  }
  return {
    active: filter.active,
    closed: filter.closed,
    archived: filter.archived,
    slug: filter.slug,
    series: filter.seriesSlug ? { some: { series: { slug: filter.seriesSlug } } } : undefined,
    // A site sees an event when it sees at least one of its markets.
    markets: filter.siteId ? { some: visibleMarkets(filter.siteId) } : undefined,
    AND: and,
  };
}

@Injectable()
export class EventRepository {
  constructor(private readonly prisma: PrismaService) {}

  list(
    filter: EventFilter,
    page: { limit: number; offset: number; order?: ListEventsRequest['order']; ascending: boolean },
  ): Promise<EventListRow[]> {
    const direction = page.ascending ? 'asc' : 'desc';
    const orderBy: Prisma.EventOrderByWithRelationInput[] = (page.order ?? []).map((c) => ({ [ORDER_FIELDS[c]]: direction }));
    orderBy.push({ id: page.order ? direction : 'asc' });
    return this.prisma.event.findMany({
      where: where(filter),
      include: eventListItem(filter.siteId),
      orderBy,
      take: page.limit,
      skip: page.offset,
    });
  }

  count(filter: EventFilter): Promise<number> {
    return this.prisma.event.count({ where: where(filter) });
  }

  findOne(key: { id?: number; slug?: string }, siteId: string | undefined): Promise<EventWithDetail | null> {
    return this.prisma.event.findFirst({
      where: { id: key.id, slug: key.slug, markets: siteId ? { some: visibleMarkets(siteId) } : undefined },
      include: eventDetail(siteId),
    });
  }

  countAll(): Promise<number> {
    return this.prisma.event.count();
  }
}
