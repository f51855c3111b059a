import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards } from '@nestjs/common';
import { AdminTokenGuard } from '../admin/admin-token.guard';
import { OrdersService } from './orders.service';
import type { QueryString } from '../http/query-string';

type Json = Record<string, unknown> | undefined;

/** The operator's money moves, its view of accounts and of the journal, and market resolution (no chain: the exchange's own ledger). */
@Controller('admin')
@UseGuards(AdminTokenGuard)
export class MoneyAdminController {
  constructor(private readonly orders: OrdersService) {}

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
  resolve(@Param('conditionId') conditionId: string, @Body() body: Json) {
    return this.orders.forward('matching.admin.resolve.v1', { ...body, conditionId });
  }

  @Post('post-only-mode')
  @HttpCode(200)
  postOnly(@Body() body: Json) {
    return this.orders.forward('matching.admin.post-only.v1', body);
  }

  /** Binds a deposit wallet (signature type 3) to the owner whose signatures it accepts: `{wallet, owner}`. */
  @Post('wallets')
  @HttpCode(200)
  bindWallet(@Body() body: Json) {
    return this.orders.forward('matching.admin.wallet.bind.v1', body);
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
