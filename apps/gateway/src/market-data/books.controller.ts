import { Body, Controller, Get, Header, HttpCode, Post, Query } from '@nestjs/common';
import { Forwarder } from '../http/forwarder.service';
import { HotMetadata } from './hot-metadata.service';

type QueryString = Record<string, string | string[]>;
/** The hot reads answer pre-rendered JSON strings (or objects): either way the body is JSON. */
const JSON_TYPE = 'application/json; charset=utf-8';

/**
 * Books and prices (market-data): answered from its in-memory books; price history from its database.
 * `/book`, `/price` and `/midpoint` come from the answers market-data keeps rendered in Redis.
 */
@Controller()
export class BooksController {
  constructor(
    private readonly forward: Forwarder,
    private readonly hot: HotMetadata,
  ) {}

  @Get('book')
  @Header('content-type', JSON_TYPE)
  book(@Query() query: QueryString) {
    return this.hot.quote('marketdata.book.v1', query);
  }

  @Post('books')
  @HttpCode(200)
  books(@Body() body: unknown) {
    return this.forward.send('marketdata.books.v1', body);
  }

  @Get('price')
  @Header('content-type', JSON_TYPE)
  price(@Query() query: QueryString) {
    return this.hot.quote('marketdata.price.v1', query);
  }

  @Post('prices')
  @HttpCode(200)
  prices(@Body() body: unknown) {
    return this.forward.send('marketdata.prices.v1', body);
  }

  @Get('midpoint')
  @Header('content-type', JSON_TYPE)
  midpoint(@Query() query: QueryString) {
    return this.hot.quote('marketdata.midpoint.v1', query);
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
