import { Injectable } from '@nestjs/common';
import {
  fail,
  ok,
  type CatalogEvent,
  type CatalogEventListItem,
  type GetEventRequest,
  type ListEventsRequest,
  type Reply,
} from '@exchange/contracts';
import { presentEvent, presentEventListItem } from '../presenters/catalog.presenter';
import { SitesService } from '../sites/sites.service';
import { EventRepository } from './event.repository';

@Injectable()
export class EventQueriesService {
  constructor(
    private readonly events: EventRepository,
    private readonly sites: SitesService,
  ) {}

  async list(request: ListEventsRequest): Promise<Reply<CatalogEventListItem[]>> {
    const site = await this.sites.resolve(request.creator);
    if ('ok' in site) return site;
    const tagSlugs = [...new Set([request.tag, request.tag_slug].filter((s): s is string => s !== undefined))];
    const rows = await this.events.list(
      {
        active: request.active,
        closed: request.closed,
        archived: request.archived,
        tagSlugs,
        tagId: request.tag_id,
        seriesSlug: request.series_slug,
        slug: request.slug,
        ids: [...(request.id ?? []), ...(request['id[]'] ?? [])],
        slugs: request['slug[]'] ?? [],
        siteId: site.siteId,
      },
      request,
    );
    return ok(rows.map(presentEventListItem));
  }

  async get(request: GetEventRequest): Promise<Reply<CatalogEvent>> {
    if (request.id === undefined && request.slug === undefined) return fail('invalid_request', 'give an id or a slug');
    const site = await this.sites.resolve(request.creator);
    if ('ok' in site) return site;
    const event = await this.events.findOne({ id: request.id, slug: request.slug }, site.siteId);
    if (!event) return fail('event_not_found', `event ${request.id ?? request.slug} not found`);
    return ok(presentEvent(event));
  }
}
