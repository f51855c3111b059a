import { Inject, Injectable } from '@nestjs/common';
import { ADDRESS_PATTERN, fail, ok, parseUnits, type Reply, type SeriesInput } from '@exchange/contracts';
import { CATALOG_ENV, type CatalogEnv } from '../config';
import type { Prisma } from '../generated/prisma/client';
import { deriveMarketIdentifiers, deriveNegRiskMarketId } from '../identifiers/market-identifiers';
import { CatalogOutbox } from '../outbox/catalog-outbox';
import { eventSnapshot, marketSnapshot } from '../outbox/snapshots';
import type { NewEvent, NewMarket } from './new-event';
import { settingsColumns } from './market-settings';
import { resolveTags, slugify } from './tag-resolver';

/** Creates events with their markets inside a caller's transaction, with their change events. */
@Injectable()
export class EventWriter {
  constructor(
    @Inject(CATALOG_ENV) private readonly env: CatalogEnv,
    private readonly outbox: CatalogOutbox,
  ) {}

  async create(tx: Prisma.TransactionClient, input: NewEvent): Promise<Reply<number>> {
    const slugs = input.markets.map((m) => m.slug);
    if (new Set(slugs).size !== slugs.length) return fail('invalid_request', 'market slugs must differ from each other');
    if (await tx.event.findUnique({ where: { slug: input.slug } })) return fail('conflict', `event slug "${input.slug}" is taken`);
    const taken = await tx.market.findFirst({ where: { slug: { in: slugs } }, select: { slug: true } });
    if (taken) return fail('conflict', `market slug "${taken.slug}" is taken`);

    const siteIds: string[] = [];
    for (const creator of input.sites) {
      const site = ADDRESS_PATTERN.test(creator)
        ? await tx.site.findUnique({ where: { creatorAddress: creator.toLowerCase() } })
        : await tx.site.findUnique({ where: { id: creator } });
      if (!site) return fail('site_not_found', `no site or creator "${creator}"`);
      if (!siteIds.includes(site.id)) siteIds.push(site.id);
    }
    const category = input.category ? slugify(input.category) : '';
    const tagIds = await resolveTags(tx, input.category ? [input.category, ...input.tags] : input.tags);
    if (!tagIds) return fail('invalid_request', 'every tag needs letters or digits');
    const seriesId = input.series === undefined ? undefined : await this.resolveSeries(tx, input.series);
    if (seriesId === null) return fail('series_not_found', `series "${String(input.series)}" not found`);
    const mirrored = input.mirrorId ? await tx.event.findUnique({ where: { mirrorId: input.mirrorId }, select: { slug: true } }) : null;
    if (mirrored) return fail('conflict', `upstream event ${input.mirrorId} is imported already, as "${mirrored.slug}"`);
    // One local market per upstream market: two upstream events naming one condition id made two (a probe).
    const upstreamMarkets = input.markets.map((m) => m.mirrorConditionId).filter((id): id is string => !!id);
    const twice = upstreamMarkets.find((id, i) => upstreamMarkets.indexOf(id) !== i);
    if (twice) return fail('invalid_request', `upstream market ${twice} appears twice in the event`);
    const mirroredMarket = upstreamMarkets.length
      ? await tx.market.findFirst({ where: { mirrorConditionId: { in: upstreamMarkets } }, select: { slug: true, mirrorConditionId: true } })
      : null;
    if (mirroredMarket) return fail('conflict', `upstream market ${mirroredMarket.mirrorConditionId} is imported already, as "${mirroredMarket.slug}"`);

    const now = new Date();
    const negRiskMarketId = input.markets.some((m) => m.negRisk)
      ? deriveNegRiskMarketId(this.identifierSettings(), input.slug)
      : '';
    const event = await tx.event.create({
      data: {
        slug: input.slug,
        ticker: input.ticker ?? input.slug,
        title: input.title,
        description: input.description,
        resolutionSource: input.resolutionSource,
        image: input.image,
        icon: input.icon,
        category,
        startDate: input.startDate ? new Date(input.startDate) : now,
        endDate: new Date(input.endDate),
        metadata: input.eventMetadata as Prisma.InputJsonValue,
        mirrorId: input.mirrorId,
        ...input.flags,
        tags: { create: tagIds.map((tagId, position) => ({ tagId, position })) },
        series: seriesId === undefined ? undefined : { create: [{ seriesId }] },
        markets: {
          create: input.markets.map((market, position) =>
            this.marketData(market, position, input, negRiskMarketId, siteIds, now),
          ),
        },
      },
      include: { markets: { include: { sites: true }, orderBy: { position: 'asc' } }, tags: { include: { tag: true } } },
    });

    await this.outbox.append(tx, 'catalog.evt.event.created.v1', eventSnapshot(event, event.markets.map((m) => m.id)));
    for (const market of event.markets) {
      await this.outbox.append(tx, 'catalog.evt.market.created.v1', marketSnapshot(market, event));
    }
    return ok(event.id);
  }

  private identifierSettings() {
    return { namespace: this.env.ID_NAMESPACE, oracle: this.env.ORACLE_ADDRESS, collateral: this.env.COLLATERAL_ADDRESS };
  }

  private marketData(
    market: NewMarket,
    position: number,
    event: NewEvent,
    negRiskMarketId: string,
    siteIds: string[],
    now: Date,
  ): Prisma.MarketCreateWithoutEventInput {
    const ids = deriveMarketIdentifiers(this.identifierSettings(), market.slug);
    return {
      position,
      question: market.question,
      slug: market.slug,
      conditionId: ids.conditionId,
      questionId: ids.questionId,
      mirrorConditionId: market.mirrorConditionId ?? '',
      description: market.description || event.description,
      resolutionSource: market.resolutionSource || event.resolutionSource,
      image: market.image || event.image,
      icon: market.icon || event.icon,
      outcomes: market.outcomes,
      tokenIds: ids.tokenIds,
      mirrorTokenIds: market.mirrorTokenIds ?? [],
      tickSize: parseUnits(market.tickSize)!,
      minOrderSize: BigInt(market.minOrderSize),
      ...settingsColumns({ feeSchedule: market.feeSchedule }),
      negRisk: market.negRisk,
      negRiskMarketId: market.negRisk ? negRiskMarketId : '',
      startDate: new Date(market.startDate ?? event.startDate ?? now),
      endDate: new Date(market.endDate ?? event.endDate),
      ...market.flags,
      sites: { create: siteIds.map((siteId) => ({ siteId })) },
    };
  }

  /** A series given by slug must exist; one given in full is created unless its slug exists. */
  private async resolveSeries(tx: Prisma.TransactionClient, series: SeriesInput): Promise<number | null> {
    if (typeof series === 'string') return (await tx.series.findUnique({ where: { slug: series } }))?.id ?? null;
    const existing = await tx.series.findUnique({ where: { slug: series.slug } });
    if (existing) return existing.id;
    const created = await tx.series.create({
      data: {
        slug: series.slug,
        title: series.title,
        ticker: series.ticker ?? series.slug,
        seriesType: series.seriesType,
        recurrence: series.recurrence,
        image: series.image,
        icon: series.icon,
      },
    });
    return created.id;
  }
}
