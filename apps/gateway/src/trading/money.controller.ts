import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { toChecksumAddress } from '@exchange/chain';
import { bindWalletRequest } from '@exchange/contracts';
import { AdminTokenGuard } from '../admin/admin-token.guard';
import { ApiKeyRepository } from '../auth/api-key.repository';
import { ApiError } from '../http/api-error';
import { objectBody } from '../http/object-body';
import { OrdersService } from './orders.service';
import type { QueryString } from '../http/query-string';

type Json = Record<string, unknown> | undefined;

/** The operator's money moves, its view of accounts and of the journal, and market resolution (no chain: the exchange's own ledger). */
@Controller('admin')
@UseGuards(AdminTokenGuard)
export class MoneyAdminController {
  constructor(
    private readonly orders: OrdersService,
    private readonly keys: ApiKeyRepository,
  ) {}

  @Post('deposits')
  @HttpCode(200)
  deposit(@Body() body: Json) {
    return this.orders.forward('matching.admin.deposit.v1', body);
  }

  @Post('withdrawals')
  @HttpCode(200)
  withdraw(@Body() body: Json) {
    return this.orders.forward('matching.admin.withdraw.v1', body);
  }

  @Post('markets/:conditionId/resolve')
  @HttpCode(200)
  resolve(@Param('conditionId') conditionId: string, @Body() body: unknown) {
    // An array body was spread index by index before being refused (1.2 s for 10 MB; found by a probe).
    return this.orders.forward('matching.admin.resolve.v1', { ...objectBody(body), conditionId });
  }

  @Post('post-only-mode')
  @HttpCode(200)
  postOnly(@Body() body: Json) {
    return this.orders.forward('matching.admin.post-only.v1', body);
  }

  /**
   * Binds a deposit wallet (signature type 3) to the owner whose signatures it accepts: `{wallet, owner}`.
   * An address that ever had an API key signs with a key of its own, so it is a trader's account and not
   * a contract wallet: bound to another owner, that owner would take the account over (found by a soak).
   */
  @Post('wallets')
  @HttpCode(200)
  async bindWallet(@Body() body: Json) {
    const request = bindWalletRequest.safeParse(body);
    const wallet = request.data?.wallet.toLowerCase();
    // A wallet named as its own owner is the engine's 400, whatever keys the address has.
    if (wallet && wallet !== request.data?.owner.toLowerCase() && (await this.keys.everHadKey(wallet))) {
      throw ApiError.of('conflict', `wallet ${toChecksumAddress(wallet)} has API keys: it is a trader's own address, not a deposit wallet`);
    }
    return this.orders.forward('matching.admin.wallet.bind.v1', body);
  }

  /** The binding that names the address, as a deposit wallet or as its owner (404 when none). */
  @Get('wallets/:address')
  walletBinding(@Param('address') address: string) {
    return this.orders.forward('matching.admin.wallet.get.v1', { address });
  }

  @Get('accounts/:address')
  account(@Param('address') address: string) {
    return this.orders.forward('matching.admin.account.v1', { address });
  }

  @Get('money-moves')
  moneyMoves(@Query() query: QueryString) {
    return this.orders.forward('matching.admin.money-moves.v1', query);
  }

  @Get('ledger/audit')
  audit() {
    return this.orders.forward('matching.admin.audit.v1', {});
  }
}
