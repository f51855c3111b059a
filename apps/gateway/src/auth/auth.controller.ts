import { Controller, Delete, Get, HttpCode, Post, UseGuards } from '@nestjs/common';
import { ApiCaller, L1Signer } from './api-caller';
import { ApiKeysService } from './api-keys.service';
import { L1AuthGuard } from './l1-auth.guard';
import { L2AuthGuard } from './l2-auth.guard';

/** The upstream key endpoints of the CLOB surface (docs/auth.md). */
@Controller('auth')
export class AuthController {
  constructor(private readonly keys: ApiKeysService) {}

  @Post('api-key')
  @HttpCode(200)
  @UseGuards(L1AuthGuard)
  create(@L1Signer() signer: L1Signer) {
    return this.keys.credentialsFor(signer, 'create');
  }

  @Get('derive-api-key')
  @UseGuards(L1AuthGuard)
  derive(@L1Signer() signer: L1Signer) {
    return this.keys.credentialsFor(signer, 'derive');
  }

  @Get('api-keys')
  @UseGuards(L2AuthGuard)
  list(@ApiCaller() caller: ApiCaller) {
    return this.keys.list(caller);
  }

  @Delete('api-key')
  @UseGuards(L2AuthGuard)
  revoke(@ApiCaller() caller: ApiCaller) {
    return this.keys.revoke(caller);
  }

  /** Closed-only mode is not a feature of this exchange: every key may open positions. */
  @Get('ban-status/closed-only')
  @UseGuards(L2AuthGuard)
  closedOnly() {
    return { closed_only: false };
  }
}
