import { Controller, Get, Query } from '@nestjs/common';
import { Forwarder } from '../http/forwarder.service';
import type { QueryString } from '../http/query-string';

@Controller()
export class TagsController {
  constructor(private readonly forward: Forwarder) {}

  @Get('tags')
  list(@Query() query: QueryString) {
    return this.forward.send('catalog.tags.list.v1', query);
  }

  @Get('public-search')
  search(@Query() query: QueryString) {
    return this.forward.send('catalog.search.v1', query);
  }
}
