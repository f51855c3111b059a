import { Injectable } from '@nestjs/common';
import { toChecksumAddress } from '@exchange/chain';
import { fail, ok, type CreateSiteRequest, type Failure, type Reply, type Site } from '@exchange/contracts';
import type { Site as SiteRow } from '../generated/prisma/client';
import { isUniqueViolation } from '../prisma/transaction';
import { SiteRepository } from './site.repository';

export function presentSite(site: SiteRow): Site {
  return {
    id: site.id,
    name: site.name,
    creatorAddress: toChecksumAddress(site.creatorAddress),
    createdAt: site.createdAt.toISOString(),
  };
}

@Injectable()
export class SitesService {
  constructor(private readonly sites: SiteRepository) {}

  /** The site id behind a creator filter; an unknown creator is a 404 rather than an empty catalog. */
  async resolve(creator: string | undefined): Promise<{ siteId: string | undefined } | Failure> {
    if (creator === undefined) return { siteId: undefined };
    const site = await this.sites.findByCreator(creator);
    return site ? { siteId: site.id } : fail('site_not_found', `no site or creator "${creator}"`);
  }

  async list(): Promise<Reply<Site[]>> {
    return ok((await this.sites.list()).map(presentSite));
  }

  async create(request: CreateSiteRequest): Promise<Reply<Site>> {
    if (await this.sites.findByCreator(request.id)) return fail('conflict', `site "${request.id}" exists`);
    if (await this.sites.findByCreator(request.creatorAddress)) {
      return fail('conflict', `creator ${request.creatorAddress} already has a site`);
    }
    try {
      return ok(presentSite(await this.sites.create(request)));
    } catch (error) {
      // The same site created concurrently: both passed the checks above, one insert wins.
      if (isUniqueViolation(error)) return fail('conflict', `site "${request.id}" or creator ${request.creatorAddress} exists`);
      throw error;
    }
  }
}
