import { Body, Controller, Get, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { AdminTokenGuard } from '../admin/admin-token.guard';
import { OrdersService } from './orders.service';

type Json = Record<string, unknown> | undefined;

/** The operator's money moves and market resolution (no chain: the exchange's own ledger). */
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

  @Get('ledger/audit')
  audit() {
    return this.orders.forward('matching.admin.audit.v1', {});
  }
}
