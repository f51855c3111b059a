import { Injectable } from '@nestjs/common';
import { toChecksumAddress } from '@exchange/chain';
import { ok, type PublicSearchRequest, type PublicSearchResult, type Reply } from '@exchange/contracts';
import { EventRepository, type EventFilter } from '../events/event.repository';
import { presentEventListItem } from '../presenters/catalog.presenter';
import { SiteRepository } from '../sites/site.repository';
import { SitesService } from '../sites/sites.service';
import { TagRepository } from '../tags/tag.repository';

/**
 * GET /public-search: events whose title, slug, description or market questions contain the text,
 * tags whose label or slug does, and the profiles of the sites (creators) whose id or name does.
 * Each type is paged by `page` and `limit_per_type`; `pagination` describes the events.
 */
@Injectable()
export class SearchService {
  constructor(
    private readonly events: EventRepository,
    private readonly tags: TagRepository,
    private readonly siteRows: SiteRepository,
    private readonly sites: SitesService,
  ) {}

  async search(request: PublicSearchRequest): Promise<Reply<PublicSearchResult>> {
    const site = await this.sites.resolve(request.creator);
    if ('ok' in site) return site;
    const take = request.limit_per_type;
    const skip = (request.page - 1) * take;
    const filter: EventFilter = {
      tagSlugs: [],
      text: request.q,
      siteId: site.siteId,
      closed: request.events_status === 'all' ? undefined : request.events_status === 'closed',
    };
    const [eventRows, total, tagRows, siteRows] = await Promise.all([
      this.events.list(filter, { limit: take, offset: skip, ascending: true }),
      this.events.count(filter),
      request.search_tags ? this.tags.search(request.q, take, skip) : Promise.resolve([]),
      request.search_profiles ? this.siteRows.search(request.q, take, skip) : Promise.resolve([]),
    ]);
    const shown = request.keep_closed_markets
      ? eventRows
      : eventRows.map((row) => ({ ...row, markets: row.markets.filter((m) => !m.closed) }));
    return ok({
      events: shown.map(presentEventListItem),
      tags: tagRows.map((t) => ({ id: String(t.id), label: t.label, slug: t.slug, event_count: t._count.events })),
      profiles: siteRows.map((s) => ({
        id: s.id,
        name: s.name,
        pseudonym: s.id,
        proxyWallet: toChecksumAddress(s.creatorAddress),
        profileImage: '',
        bio: '',
      })),
      pagination: { hasMore: skip + eventRows.length < total, totalResults: total },
    });
  }
}
