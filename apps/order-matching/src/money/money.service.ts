import { Injectable } from '@nestjs/common';
import {
  fail,
  type AccountRequest,
  type BindWalletRequest,
  formatUnits,
  ok,
  type AccountBalances,
  type LedgerAudit,
  type MoneyMoveRequest,
  type MoneyMoveResult,
  type PostOnlyModeRequest,
  type RedeemRequest,
  type Reply,
  type ResolveRequest,
  type SplitMergeRequest,
  type WalletBinding,
} from '@exchange/contracts';
import { toChecksumAddress } from '@exchange/chain';
import type { EngineState } from '../engine/engine-state';
import { fundingAccount } from '../engine/caller-accounts';
import { COLLATERAL } from '../engine/ledger';
import { audit, deposit, merge, redeem, split, withdraw } from '../engine/money';
import { EngineService } from '../engine-host/engine.service';
import { SteppedCancels } from '../engine-host/stepped-cancels';
import { OneAtATime } from '../journal/one-at-a-time';

/** Operator and trader money moves, each a command of the engine answered after its commit. */
@Injectable()
export class MoneyService {
  /** Binds, in the order they arrive (`bindWallet`). */
  private readonly binds = new OneAtATime();

  constructor(
    private readonly engine: EngineService,
    private readonly cancels: SteppedCancels,
  ) {}

  deposit(request: MoneyMoveRequest) {
    return this.external(request, deposit);
  }

  withdraw(request: MoneyMoveRequest) {
    return this.external(request, withdraw);
  }

  split(request: SplitMergeRequest) {
    return this.named(request, split);
  }

  merge(request: SplitMergeRequest) {
    return this.named(request, merge);
  }

  async redeem(request: RedeemRequest): Promise<Reply<AccountBalances>> {
    const moved = await this.move(request, (state, account, now) => redeem(state, account, request.conditionId, now));
    return moved.ok ? ok(this.balances(moved.data.account)) : moved;
  }

  async resolve(request: ResolveRequest): Promise<Reply<{ conditionId: string; winningOutcome: number; canceled: number }>> {
    const conditionId = request.conditionId.toLowerCase();
    const market = this.engine.state.markets.get(conditionId);
    if (!market) return fail('market_not_found', `market ${conditionId} not found`);
    const named = String(request.winningOutcome).toLowerCase();
    const winner = typeof request.winningOutcome === 'number' ? request.winningOutcome : market.outcomes.findIndex((o) => o.toLowerCase() === named);
    if (winner !== 0 && winner !== 1) return fail('invalid_request', `winningOutcome must be 0, 1 or an outcome's name in any case (${market.outcomes.join(', ')})`);
    const resolved = await this.cancels.resolve(conditionId, winner);
    return resolved.ok ? ok({ conditionId, winningOutcome: winner, canceled: resolved.data.canceled }) : resolved;
  }

  /**
   * Binds a deposit wallet to its owner for good (docs/trading.md, "A caller's accounts": a wallet's
   * owner does not change, an owner has one wallet, an address is one or the other), stored before it
   * takes effect. Until it is bound, no type-3 order of the wallet is accepted. Binds run one at a time,
   * so that the engine's bindings decide (the unique indexes back them).
   */
  bindWallet(request: BindWalletRequest): Promise<Reply<WalletBinding>> {
    return this.binds.run(() => this.bind(request.wallet.toLowerCase(), request.owner.toLowerCase()));
  }

  private async bind(wallet: string, owner: string): Promise<Reply<WalletBinding>> {
    const wallets = this.engine.state.wallets;
    const refusal = wallets.refusal(wallet, owner);
    if (refusal) return refusal;
    if (wallets.ownerOf(wallet) === undefined) {
      await this.engine.fencedWrite((client) => client.query('INSERT INTO deposit_wallets (wallet, owner) VALUES ($1, $2)', [wallet, owner]));
      wallets.bind(wallet, owner);
    }
    return ok({ wallet: toChecksumAddress(wallet), owner: toChecksumAddress(owner) });
  }

  /** The binding that names the address, as its wallet or as its owner. */
  walletBinding(request: AccountRequest): Reply<WalletBinding> {
    const binding = this.engine.state.wallets.bindingOf(request.address.toLowerCase());
    if (!binding) return fail('wallet_not_found', `no deposit wallet binding names ${toChecksumAddress(request.address)}`);
    return ok({ wallet: toChecksumAddress(binding.wallet), owner: toChecksumAddress(binding.owner) });
  }

  postOnly(request: PostOnlyModeRequest): Reply<{ enabled: boolean; until: string | null }> {
    const until = request.enabled ? Date.now() + request.retryAfterSeconds * 1000 : 0;
    this.engine.state.postOnlyUntil = until;
    return ok({ enabled: request.enabled, until: until ? new Date(until).toISOString() : null });
  }

  /** An account as the journal has it: read after a commit, like a command, so nothing uncommitted shows. */
  async account(request: AccountRequest): Promise<Reply<AccountBalances>> {
    const { value } = await this.engine.run(() => this.balances(request.address.toLowerCase()));
    return ok(value);
  }

  audit(): Reply<LedgerAudit> {
    const result = audit(this.engine.state);
    return ok({
      deposits: String(result.deposits),
      withdrawals: String(result.withdrawals),
      collateral: String(result.collateral),
      backing: String(result.backing),
      unbalancedMarkets: result.unbalancedMarkets,
      balanced: result.balanced,
    });
  }

  /** A deposit or withdrawal: a retry under the same reference answers as the first time, without moving money again. */
  private async external(request: MoneyMoveRequest, apply: typeof deposit): Promise<Reply<MoneyMoveResult>> {
    const move = { address: request.address.toLowerCase(), amount: request.amount, reference: request.reference };
    const { value } = await this.engine.run((state, now) => apply(state, move, now));
    return value.ok ? ok(this.moveResult(move.address, move.reference, value.data.replayed)) : value;
  }

  /** A split or merge: as `move`, and a retry under the same reference answers as the first time. */
  private async named(request: SplitMergeRequest, apply: typeof split): Promise<Reply<MoneyMoveResult>> {
    const { conditionId, amount, reference } = request;
    const moved = await this.move(request, (state, account, now) => apply(state, account, conditionId, amount, now, reference));
    return moved.ok ? ok(this.moveResult(moved.data.account, reference, moved.data.outcome.replayed)) : moved;
  }

  /** A trader's move on the account its signature type names (caller-accounts.ts): that account and the move's outcome. */
  private async move<T>(request: RedeemRequest, command: (state: EngineState, account: string, now: number) => Reply<T>): Promise<Reply<{ account: string; outcome: T }>> {
    const account = fundingAccount(this.engine.state, request.caller, request.signatureType);
    if (!account.ok) return account;
    const { value } = await this.engine.run((state, now) => command(state, account.data, now));
    return value.ok ? ok({ account: account.data, outcome: value.data }) : value;
  }

  /** The account after a move that may carry a reference, and whether the reference had been applied before. */
  private moveResult(address: string, reference: string | undefined, replayed: boolean): MoneyMoveResult {
    return { ...this.balances(address), reference: reference ?? null, replayed };
  }

  private balances(address: string): AccountBalances {
    const holdings = this.engine.state.ledger.holdings(address);
    const collateral = holdings.find(([asset]) => asset === COLLATERAL)?.[1] ?? { available: 0, reserved: 0 };
    return {
      address: toChecksumAddress(address),
      collateral: { available: formatUnits(collateral.available), reserved: formatUnits(collateral.reserved) },
      // In token id order (uint256 decimals: shorter is smaller): the ledger's own order changed across
      // a restart, which read as a change to a client comparing lists (found by a probe).
      positions: holdings
        .filter(([asset, b]) => asset !== COLLATERAL && b.available + b.reserved > 0)
        .sort(([a], [b]) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0))
        .map(([asset, b]) => ({ token_id: asset, available: formatUnits(b.available), reserved: formatUnits(b.reserved) })),
    };
  }
}
