import { Injectable } from '@nestjs/common';
import { ok, type ListTagsRequest, type Reply, type Tag } from '@exchange/contracts';
import { presentTag } from '../presenters/catalog.presenter';
import { TagRepository } from './tag.repository';

@Injectable()
export class TagsService {
  constructor(private readonly tags: TagRepository) {}

  async list(request: ListTagsRequest): Promise<Reply<Tag[]>> {
    return ok((await this.tags.list(request)).map(presentTag));
  }
}
