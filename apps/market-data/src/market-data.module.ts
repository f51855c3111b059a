import { Module, type DynamicModule } from '@nestjs/common';
import { HealthController, MessagingModule, PROCESS_EXIT, type ProcessExit } from '@exchange/service-kit';
import { ActivityController } from './activity/activity.controller';
import { BooksController } from './books/books.controller';
import { BooksService } from './books/books.service';
import { MarketBooks } from './books/market-books';
import { MatchingConsumer } from './books/matching-consumer.service';
import { EngineSources } from './engine/engine-sources';
import { PriceBackfill } from './history/price-backfill';
import { QuoteWriter } from './books/quote-writer';
import { MARKET_DATA_ENV, type MarketDataEnv } from './config';
import { HistoryController } from './history/history.controller';
import { HistoryService } from './history/history.service';
import { PriceHistoryRepository } from './history/price-history.repository';
import { CatalogConsumer } from './markets/catalog-consumer.service';
import { FinerTicks } from './markets/finer-ticks';
import { HotMetadataWriter } from './markets/hot-metadata.writer';
import { MarketRepository } from './markets/market.repository';
import { MarketRegistry } from './markets/market-registry';
import { MarketsController } from './markets/markets.controller';
import { MarketsService } from './markets/markets.service';
import { RewardsService } from './markets/rewards.service';
import { PrismaService } from './prisma/prisma.service';
import { RedisConnection } from './redis/redis.provider';
import { RedisRefill } from './redis/redis-refill.service';
import { SnapshotRepository } from './streams/snapshot.repository';

@Module({})
export class MarketDataModule {
  static forRoot(env: MarketDataEnv, exit: ProcessExit): DynamicModule {
    return {
      module: MarketDataModule,
      imports: [MessagingModule.forRoot(env, 'market-data')],
      controllers: [HealthController, MarketsController, BooksController, HistoryController, ActivityController],
      providers: [
        { provide: MARKET_DATA_ENV, useValue: env },
        { provide: PROCESS_EXIT, useValue: exit },
        PrismaService,
        RedisConnection,
        MarketRepository,
        PriceHistoryRepository,
        SnapshotRepository,
        MarketRegistry,
        MarketBooks,
        HotMetadataWriter,
        QuoteWriter,
        CatalogConsumer,
        MatchingConsumer,
        EngineSources,
        PriceBackfill,
        RewardsService,
        FinerTicks,
        RedisRefill,
        MarketsService,
        BooksService,
        HistoryService,
      ],
    };
  }
}
