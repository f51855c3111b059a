import { Controller, Get, Param, Query } from '@nestjs/common';
import { Forwarder } from '../http/forwarder.service';
import type { QueryString } from '../http/query-string';

/**
 * CLOB market settings (market-data). GET /markets/{condition_id} is served by the catalog's
 * MarketsController, which picks the form by surface; the list is CLOB-only.
 */
@Controller()
export class ClobMarketsController {
  constructor(private readonly forward: Forwarder) {}

  @Get('markets')
  list(@Query() query: QueryString) {
    return this.forward.send('marketdata.markets.list.v1', query);
  }

  @Get('sampling-markets')
  sampling(@Query() query: QueryString) {
    return this.forward.send('marketdata.sampling-markets.list.v1', query);
  }

  @Get('simplified-markets')
  simplified(@Query() query: QueryString) {
    return this.forward.send('marketdata.simplified-markets.list.v1', query);
  }

  @Get('sampling-simplified-markets')
  samplingSimplified(@Query() query: QueryString) {
    return this.forward.send('marketdata.sampling-simplified-markets.list.v1', query);
  }

  @Get('clob-markets/:id')
  info(@Param('id') id: string) {
    return this.forward.send('marketdata.clob-market.get.v1', { condition_id: id });
  }

  @Get('markets-by-token/:id')
  byToken(@Param('id') id: string) {
    return this.forward.send('marketdata.markets-by-token.v1', { token_id: id });
  }
}
