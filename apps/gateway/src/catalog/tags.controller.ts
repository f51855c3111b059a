import { Controller, Get, Query } from '@nestjs/common';
import { Forwarder } from '../http/forwarder.service';

@Controller()
export class TagsController {
  constructor(private readonly forward: Forwarder) {}

  @Get('tags')
  list(@Query() query: Record<string, string | string[]>) {
    return this.forward.send('catalog.tags.list.v1', query);
  }

  @Get('public-search')
  search(@Query() query: Record<string, string | string[]>) {
    return this.forward.send('catalog.search.v1', query);
  }
}
