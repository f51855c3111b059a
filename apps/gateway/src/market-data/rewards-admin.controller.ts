import { Body, Controller, Param, Put, UseGuards } from '@nestjs/common';
import { AdminTokenGuard } from '../admin/admin-token.guard';
import { Forwarder } from '../http/forwarder.service';

/** Operator: liquidity rewards of a market; rewarded markets accepting orders are the sampling markets. */
@Controller('admin')
@UseGuards(AdminTokenGuard)
export class RewardsAdminController {
  constructor(private readonly forward: Forwarder) {}

  @Put('markets/:id/rewards')
  setRewards(@Param('id') id: string, @Body() body: unknown) {
    return this.forward.send('marketdata.admin.rewards.set.v1', { condition_id: id, body });
  }
}
