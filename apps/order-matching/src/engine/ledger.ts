/** The collateral asset's key in the ledger; outcome tokens are keyed by their token id. */
export const COLLATERAL = 'COLLATERAL';

export interface Balance {
  available: number;
  reserved: number;
}

export interface BalanceRow extends Balance {
  address: string;
  asset: string;
}

/**
 * Balances per address and asset, in base units. Resting orders reserve what they may spend; the
 * ledger only moves units between available, reserved and other accounts, so that every unit is
 * accounted for (docs/trading.md). Addresses are lower-case. It remembers which balances changed, for
 * the next journal batch.
 */
export class Ledger {
  private readonly accounts = new Map<string, Map<string, Balance>>();
  private readonly changed = new Map<string, { address: string; asset: string; balance: Balance }>();

  get(address: string, asset: string): Balance {
    return this.accounts.get(address)?.get(asset) ?? { available: 0, reserved: 0 };
  }

  /** Loads a persisted balance at start-up, without marking it changed. */
  load(row: BalanceRow): void {
    this.slot(row.address, row.asset, false).available = row.available;
    this.slot(row.address, row.asset, false).reserved = row.reserved;
  }

  credit(address: string, asset: string, amount: number): void {
    if (baseUnits(amount) === 0) return;
    const balance = this.slot(address, asset);
    balance.available = checked(balance.available + amount);
  }

  /** Takes from the available balance; false (and nothing moves) when there is not enough. */
  debit(address: string, asset: string, amount: number): boolean {
    if (!this.covers(address, asset, amount)) return false;
    if (amount === 0) return true;
    this.slot(address, asset).available -= amount;
    return true;
  }

  reserve(address: string, asset: string, amount: number): boolean {
    if (!this.covers(address, asset, amount)) return false;
    if (amount === 0) return true;
    const balance = this.slot(address, asset);
    balance.available -= amount;
    balance.reserved += amount;
    return true;
  }

  release(address: string, asset: string, amount: number): void {
    if (baseUnits(amount) === 0) return;
    const balance = this.slot(address, asset);
    if (balance.reserved < amount) throw new Error(`ledger: release of ${amount} ${asset} exceeds reserved ${balance.reserved} of ${address}`);
    balance.reserved -= amount;
    balance.available += amount;
  }

  /** Spends from what an order reserved: the units leave the account. */
  spendReserved(address: string, asset: string, amount: number): void {
    if (baseUnits(amount) === 0) return;
    const balance = this.slot(address, asset);
    if (balance.reserved < amount) throw new Error(`ledger: spend of ${amount} ${asset} exceeds reserved ${balance.reserved} of ${address}`);
    balance.reserved -= amount;
  }

  /** Balances changed since the last call, for the journal. */
  takeChanged(): BalanceRow[] {
    const rows = [...this.changed.values()].map(({ address, asset, balance }) => ({ address, asset, ...balance }));
    this.changed.clear();
    return rows;
  }

  /** Sum of available and reserved of one asset over all accounts. */
  total(asset: string): number {
    let sum = 0;
    for (const assets of this.accounts.values()) {
      const balance = assets.get(asset);
      if (balance) sum += balance.available + balance.reserved;
    }
    return sum;
  }

  holdings(address: string): [string, Balance][] {
    return [...(this.accounts.get(address)?.entries() ?? [])];
  }

  /**
   * Whether the available balance holds `amount`. Read without making a balance: a refused order or split
   * of an address that holds nothing must not leave an empty row behind (in memory, and in the journal for
   * good: one address could make one per asset of every market with orders it cannot pay for).
   */
  covers(address: string, asset: string, amount: number): boolean {
    return this.get(address, asset).available >= baseUnits(amount);
  }

  private slot(address: string, asset: string, markChanged = true): Balance {
    let assets = this.accounts.get(address);
    if (!assets) this.accounts.set(address, (assets = new Map()));
    let balance = assets.get(asset);
    if (!balance) assets.set(asset, (balance = { available: 0, reserved: 0 }));
    if (markChanged) this.changed.set(`${address}|${asset}`, { address, asset, balance });
    return balance;
  }
}

/**
 * Every amount that moves is a whole, non-negative number of base units: a fraction (a value computed
 * off the price or share grid) or a negative one (a debit that credits) would break conservation
 * quietly, so it is a fault of the engine instead.
 */
function baseUnits(amount: number): number {
  if (!Number.isSafeInteger(amount) || amount < 0) throw new Error(`ledger: ${amount} is not a whole number of base units`);
  return amount;
}

function checked(value: number): number {
  if (!Number.isSafeInteger(value)) throw new Error('ledger: amount out of range');
  return value;
}
