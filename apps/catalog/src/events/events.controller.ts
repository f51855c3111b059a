import { Controller } from '@nestjs/common';
import { RpcRoute } from '@exchange/service-kit';
import type { GetEventRequest, ListEventsRequest } from '@exchange/contracts';
import { EventQueriesService } from './event-queries.service';

@Controller()
export class EventsController {
  constructor(private readonly events: EventQueriesService) {}

  @RpcRoute('catalog.events.list.v1')
  list(request: ListEventsRequest) {
    return this.events.list(request);
  }

  @RpcRoute('catalog.events.get.v1')
  get(request: GetEventRequest) {
    return this.events.get(request);
  }
}
