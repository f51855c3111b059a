import { Controller, Get, Param, Query } from '@nestjs/common';
import { HotMetadata } from './hot-metadata.service';

/** Per-token settings clients read before signing orders; `/{route}/{token_id}` works as well. */
@Controller()
export class MetadataController {
  constructor(private readonly hot: HotMetadata) {}

  @Get('tick-size')
  tickSize(@Query('token_id') tokenId?: string) {
    return this.hot.tickSize({ token_id: tokenId });
  }

  @Get('tick-size/:id')
  tickSizeOf(@Param('id') tokenId: string) {
    return this.hot.tickSize({ token_id: tokenId });
  }

  @Get('neg-risk')
  negRisk(@Query('token_id') tokenId?: string) {
    return this.hot.negRisk({ token_id: tokenId });
  }

  @Get('neg-risk/:id')
  negRiskOf(@Param('id') tokenId: string) {
    return this.hot.negRisk({ token_id: tokenId });
  }

  @Get('fee-rate')
  feeRate(@Query('token_id') tokenId?: string) {
    return this.hot.feeRate({ token_id: tokenId });
  }

  @Get('fee-rate/:id')
  feeRateOf(@Param('id') tokenId: string) {
    return this.hot.feeRate({ token_id: tokenId });
  }
}
