import { Controller, Delete, Get, HttpCode, Logger, Post, UseGuards } from '@nestjs/common';
import { Forwarder } from '../http/forwarder.service';
import { ApiCaller, L1Signer } from './api-caller';
import { ApiKeysService } from './api-keys.service';
import { L1AuthGuard } from './l1-auth.guard';
import { L2AuthGuard } from './l2-auth.guard';

/** The upstream key endpoints of the CLOB surface (docs/auth.md). */
@Controller('auth')
export class AuthController {
  private readonly logger = new Logger('auth');

  constructor(
    private readonly keys: ApiKeysService,
    private readonly forwarder: Forwarder,
  ) {}

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
  async revoke(@ApiCaller() caller: ApiCaller) {
    const answer = await this.keys.revoke(caller);
    // The key's cancel-on-disconnect session ends with it: nothing could beat it any more, and 15 s later
    // it cancelled the account's orders, another key's session beating or not (found by a soak). If the
    // engine cannot be told now, the session runs out and cancels, as it did before.
    await this.forwarder.send('matching.heartbeat.end.v1', { caller }).catch((error: unknown) => {
      this.logger.warn(`the heartbeat session of a deleted key was not ended: ${String(error)}`);
    });
    return answer;
  }

  /** Closed-only mode is not a feature of this exchange: every key may open positions. */
  @Get('ban-status/closed-only')
  @UseGuards(L2AuthGuard)
  closedOnly() {
    return { closed_only: false };
  }
}
