import { Controller } from '@nestjs/common';
import { RpcRoute } from '@exchange/service-kit';
import type { ListTagsRequest } from '@exchange/contracts';
import { TagsService } from './tags.service';

@Controller()
export class TagsController {
  constructor(private readonly tags: TagsService) {}

  @RpcRoute('catalog.tags.list.v1')
  list(request: ListTagsRequest) {
    return this.tags.list(request);
  }
}
