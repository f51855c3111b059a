import { Module, type DynamicModule } from '@nestjs/common';
import { HealthController, MessagingModule, PROCESS_EXIT, type ProcessExit } from '@exchange/service-kit';
import { ActivitySync } from './activity/activity-sync.service';
import { ActivityWriter } from './activity/activity-writer';
import { AdminController } from './admin/admin.controller';
import { AdminEventsService } from './admin/admin-events.service';
import { EventWriter } from './admin/event-writer';
import { CATALOG_ENV, type CatalogEnv } from './config';
import { DemoLoader } from './demo/demo-loader.service';
import { EventQueriesService } from './events/event-queries.service';
import { EventRepository } from './events/event.repository';
import { EventsController } from './events/events.controller';
import { ImportJobRepository } from './import/import-job.repository';
import { ImportService } from './import/import.service';
import { MarketQueriesService } from './markets/market-queries.service';
import { MarketRepository } from './markets/market.repository';
import { MarketsController } from './markets/markets.controller';
import { CatalogOutbox } from './outbox/catalog-outbox';
import { PrismaService } from './prisma/prisma.service';
import { ResolutionConsumer } from './resolutions/resolution-consumer.service';
import { ResolutionWriter } from './resolutions/resolution-writer';
import { SearchController } from './search/search.controller';
import { SearchService } from './search/search.service';
import { SiteRepository } from './sites/site.repository';
import { SitesService } from './sites/sites.service';
import { TagRepository } from './tags/tag.repository';
import { TagsController } from './tags/tags.controller';
import { TagsService } from './tags/tags.service';

@Module({})
export class CatalogModule {
  static forRoot(env: CatalogEnv, exit: ProcessExit): DynamicModule {
    return {
      module: CatalogModule,
      imports: [MessagingModule.forRoot(env, 'catalog')],
      controllers: [HealthController, EventsController, MarketsController, TagsController, SearchController, AdminController],
      providers: [
        { provide: CATALOG_ENV, useValue: env },
        { provide: PROCESS_EXIT, useValue: exit },
        PrismaService,
        CatalogOutbox,
        EventRepository,
        MarketRepository,
        TagRepository,
        SiteRepository,
        SitesService,
        EventQueriesService,
        MarketQueriesService,
        TagsService,
        SearchService,
        EventWriter,
        AdminEventsService,
        ImportService,
        ImportJobRepository,
        DemoLoader,
        ResolutionWriter,
        ResolutionConsumer,
        ActivityWriter,
        ActivitySync,
      ],
      exports: [ImportService],
    };
  }
}
