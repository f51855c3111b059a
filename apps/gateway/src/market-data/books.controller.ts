import { Body, Controller, Get, HttpCode, Post, Query } from '@nestjs/common';
import { Forwarder } from '../http/forwarder.service';
import type { QueryString } from '../http/query-string';

/**
 * Books and prices (market-data): answered from its in-memory books; price history from its database.
 * `/book`, `/price` and `/midpoint` are answered in front of Fastify (hot-lane.ts), from Redis.
 */
@Controller()
export class BooksController {
  constructor(private readonly forward: Forwarder) {}

  @Post('books')
  @HttpCode(200)
  books(@Body() body: unknown) {
    return this.forward.send('marketdata.books.v1', body);
  }

  @Post('prices')
  @HttpCode(200)
  prices(@Body() body: unknown) {
    return this.forward.send('marketdata.prices.v1', body);
  }

  @Post('midpoints')
  @HttpCode(200)
  midpoints(@Body() body: unknown) {
    return this.forward.send('marketdata.midpoints.v1', body);
  }

  @Get('spread')
  spread(@Query() query: QueryString) {
    return this.forward.send('marketdata.spread.v1', query);
  }

  @Post('spreads')
  @HttpCode(200)
  spreads(@Body() body: unknown) {
    return this.forward.send('marketdata.spreads.v1', body);
  }

  @Get('last-trade-price')
  lastTradePrice(@Query() query: QueryString) {
    return this.forward.send('marketdata.last-trade-price.v1', query);
  }

  @Post('last-trades-prices')
  @HttpCode(200)
  lastTradesPrices(@Body() body: unknown) {
    return this.forward.send('marketdata.last-trades-prices.v1', body);
  }

  @Get('prices-history')
  pricesHistory(@Query() query: QueryString) {
    return this.forward.send('marketdata.prices-history.v1', query);
  }

  @Post('batch-prices-history')
  @HttpCode(200)
  batchPricesHistory(@Body() body: unknown) {
    return this.forward.send('marketdata.batch-prices-history.v1', body);
  }
}
