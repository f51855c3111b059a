import { toChecksumAddress } from '@exchange/chain';
import { fail, type Failure } from '@exchange/contracts';

/**
 * Deposit wallets (signature type 3) and the owners the operator bound them to, both ways: an order's
 * wallet is checked against its owner, and an owner's key reaches its wallet's account. An owner has
 * at most one wallet, as upstream derives it from the owner, and an address is a wallet or an owner,
 * not both, as a contract wallet is not a key that signs (docs/trading.md, "A caller's accounts").
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

  /** The binding that names the address, as its wallet or as its owner. */
  bindingOf(address: string): { wallet: string; owner: string } | undefined {
    const owner = this.owners.get(address);
    if (owner !== undefined) return { wallet: address, owner };
    const wallet = this.wallets.get(address);
    return wallet === undefined ? undefined : { wallet, owner: address };
  }

  /** Why binding the wallet to the owner is refused, if it is; the binding it already is is not. */
  refusal(wallet: string, owner: string): Failure | undefined {
    if (wallet === owner) return fail('invalid_request', 'a wallet cannot be its own owner');
    const bound = this.owners.get(wallet);
    if (bound === owner) return undefined;
    if (bound !== undefined) return fail('conflict', `wallet ${toChecksumAddress(wallet)} is bound to another owner`);
    const held = this.wallets.get(owner);
    if (held !== undefined) return fail('conflict', `owner ${toChecksumAddress(owner)} has deposit wallet ${toChecksumAddress(held)} (one per owner)`);
    const ownersOwner = this.owners.get(owner);
    if (ownersOwner !== undefined) {
      return fail('conflict', `owner ${toChecksumAddress(owner)} is itself the deposit wallet of ${toChecksumAddress(ownersOwner)}`);
    }
    const walletsWallet = this.wallets.get(wallet);
    if (walletsWallet !== undefined) {
      return fail('conflict', `wallet ${toChecksumAddress(wallet)} is itself the owner of deposit wallet ${toChecksumAddress(walletsWallet)}`);
    }
    return undefined;
  }
}
