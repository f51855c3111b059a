import { Injectable } from '@nestjs/common';
import { fail, ok, type CatalogMarket, type GetMarketRequest, type Reply } from '@exchange/contracts';
import { presentMarket } from '../presenters/catalog.presenter';
import { SitesService } from '../sites/sites.service';
import { MarketRepository } from './market.repository';

@Injectable()
export class MarketQueriesService {
  constructor(
    private readonly markets: MarketRepository,
    private readonly sites: SitesService,
  ) {}

  async get(request: GetMarketRequest): Promise<Reply<CatalogMarket>> {
    const site = await this.sites.resolve(request.creator);
    if ('ok' in site) return site;
    const market = await this.markets.findOne(request.id, site.siteId);
    if (!market) return fail('market_not_found', `market ${request.id} not found`);
    return ok(presentMarket(market));
  }
}
