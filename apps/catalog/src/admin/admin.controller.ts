import { Controller } from '@nestjs/common';
import { RpcRoute } from '@exchange/service-kit';
import type { CreateSiteRequest, GetImportRequest, ImportRequest, PatchEventRequest, PatchMarketRequest, RpcRequest } from '@exchange/contracts';
import { ImportService } from '../import/import.service';
import { SitesService } from '../sites/sites.service';
import { AdminEventsService } from './admin-events.service';

/** The operator API; the gateway lets only bearers of the admin token reach these subjects. */
@Controller()
export class AdminController {
  constructor(
    private readonly events: AdminEventsService,
    private readonly importer: ImportService,
    private readonly sites: SitesService,
  ) {}

  @RpcRoute('catalog.admin.events.create.v1')
  createEvent(request: RpcRequest<'catalog.admin.events.create.v1'>) {
    return this.events.create(request.body);
  }

  @RpcRoute('catalog.admin.events.patch.v1')
  patchEvent(request: PatchEventRequest) {
    return this.events.patchEvent(request);
  }

  @RpcRoute('catalog.admin.markets.patch.v1')
  patchMarket(request: PatchMarketRequest) {
    return this.events.patchMarket(request);
  }

  @RpcRoute('catalog.admin.import.v1')
  import(request: ImportRequest) {
    return this.importer.import(request);
  }

  @RpcRoute('catalog.admin.imports.get.v1')
  getImport(request: GetImportRequest) {
    return this.importer.get(request.id);
  }

  @RpcRoute('catalog.admin.sites.create.v1')
  createSite(request: CreateSiteRequest) {
    return this.sites.create(request);
  }

  @RpcRoute('catalog.admin.sites.list.v1')
  listSites(_request: RpcRequest<'catalog.admin.sites.list.v1'>) {
    return this.sites.list();
  }
}
