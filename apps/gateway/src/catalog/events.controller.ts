import { Controller, Get, Param, Query } from '@nestjs/common';
import { Forwarder } from '../http/forwarder.service';
import type { QueryParam, QueryString } from '../http/query-string';

@Controller('events')
export class EventsController {
  constructor(private readonly forward: Forwarder) {}

  @Get()
  list(@Query() query: QueryString) {
    return this.forward.send('catalog.events.list.v1', query);
  }

  @Get('slug/:slug')
  bySlug(@Param('slug') slug: string, @Query('creator') creator: QueryParam) {
    return this.forward.send('catalog.events.get.v1', { slug, creator });
  }

  @Get(':id')
  byId(@Param('id') id: string, @Query('creator') creator: QueryParam) {
    return this.forward.send('catalog.events.get.v1', { id, creator });
  }
}
