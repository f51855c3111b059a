import { Module, type DynamicModule } from '@nestjs/common';
import { HealthController, MessagingModule } from '@exchange/service-kit';
import { MATCHING_ENV, type MatchingEnv } from './config';
import { EngineService, FATAL_HANDLER, type FatalHandler } from './engine-host/engine.service';
import { SteppedCancels } from './engine-host/stepped-cancels';
import { HeartbeatsService } from './heartbeats/heartbeats.service';
import { CatalogConsumer } from './markets/catalog-consumer.service';
import { MoneyController } from './money/money.controller';
import { MoneyJournalService } from './money/money-journal.service';
import { MoneyService } from './money/money.service';
import { OrdersController } from './orders/orders.controller';
import { OrdersService } from './orders/orders.service';
import { QueriesController } from './queries/queries.controller';
import { QueriesService } from './queries/queries.service';
import { ReadModelSources } from './queries/read-model-sources.service';

@Module({})
export class MatchingModule {
  static forRoot(env: MatchingEnv, onFatal: FatalHandler): DynamicModule {
    return {
      module: MatchingModule,
      imports: [MessagingModule.forRoot(env, 'order-matching')],
      controllers: [HealthController, OrdersController, QueriesController, MoneyController],
      providers: [
        { provide: MATCHING_ENV, useValue: env },
        { provide: FATAL_HANDLER, useValue: onFatal },
        EngineService,
        SteppedCancels,
        CatalogConsumer,
        HeartbeatsService,
        OrdersService,
        QueriesService,
        ReadModelSources,
        MoneyService,
        MoneyJournalService,
      ],
    };
  }
}
