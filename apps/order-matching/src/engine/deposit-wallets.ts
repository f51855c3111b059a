/**
 * Deposit wallets (signature type 3) and the owners the operator bound them to, both ways: an order's
 * wallet is checked against its owner, and an owner's key reaches its wallet's account. An owner has
 * at most one wallet, as upstream derives it from the owner (docs/trading.md, "A caller's accounts").
 * Addresses are lower-case.
 */
export class DepositWallets {
  private readonly owners = new Map<string, string>();
  private readonly wallets = new Map<string, string>();

  bind(wallet: string, owner: string): void {
    this.owners.set(wallet, owner);
    this.wallets.set(owner, wallet);
  }

  ownerOf(wallet: string): string | undefined {
    return this.owners.get(wallet);
  }

  walletOf(owner: string): string | undefined {
    return this.wallets.get(owner);
  }
}
