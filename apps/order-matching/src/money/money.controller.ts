import { Controller } from '@nestjs/common';
import type { AccountRequest, BindWalletRequest, MoneyMoveRequest, MoneyMovesRequest, PostOnlyModeRequest, RedeemRequest, ResolveRequest, RpcRequest, SplitMergeRequest } from '@exchange/contracts';
import { RpcRoute } from '@exchange/service-kit';
import { MoneyJournalService } from './money-journal.service';
import { MoneyService } from './money.service';

@Controller()
export class MoneyController {
  constructor(
    private readonly money: MoneyService,
    private readonly journal: MoneyJournalService,
  ) {}

  @RpcRoute('matching.admin.deposit.v1')
  deposit(request: MoneyMoveRequest) {
    return this.money.deposit(request);
  }

  @RpcRoute('matching.admin.withdraw.v1')
  withdraw(request: MoneyMoveRequest) {
    return this.money.withdraw(request);
  }

  @RpcRoute('matching.admin.wallet.bind.v1')
  bindWallet(request: BindWalletRequest) {
    return this.money.bindWallet(request);
  }

  @RpcRoute('matching.admin.wallet.get.v1')
  async walletBinding(request: AccountRequest) {
    return this.money.walletBinding(request);
  }

  @RpcRoute('matching.split.v1')
  split(request: SplitMergeRequest) {
    return this.money.split(request);
  }

  @RpcRoute('matching.merge.v1')
  merge(request: SplitMergeRequest) {
    return this.money.merge(request);
  }

  @RpcRoute('matching.redeem.v1')
  redeem(request: RedeemRequest) {
    return this.money.redeem(request);
  }

  @RpcRoute('matching.admin.resolve.v1')
  resolve(request: ResolveRequest) {
    return this.money.resolve(request);
  }

  @RpcRoute('matching.admin.post-only.v1')
  async postOnly(request: PostOnlyModeRequest) {
    return this.money.postOnly(request);
  }

  @RpcRoute('matching.admin.account.v1')
  account(request: AccountRequest) {
    return this.money.account(request);
  }

  @RpcRoute('matching.admin.money-moves.v1')
  moneyMoves(request: MoneyMovesRequest) {
    return this.journal.list(request);
  }

  @RpcRoute('matching.admin.audit.v1')
  async audit(_request: RpcRequest<'matching.admin.audit.v1'>) {
    return this.money.audit();
  }
}
