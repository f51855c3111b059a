import { Controller } from '@nestjs/common';
import { RpcRoute } from '@exchange/service-kit';
import type { PublicSearchRequest } from '@exchange/contracts';
import { SearchService } from './search.service';

@Controller()
export class SearchController {
  constructor(private readonly search: SearchService) {}

  @RpcRoute('catalog.search.v1')
  find(request: PublicSearchRequest) {
    return this.search.search(request);
  }
}
