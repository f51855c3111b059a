import type { OrderState } from './model';

const NONE: ReadonlySet<OrderState> = new Set();

/**
 * Resting orders grouped by one of their fields (owner, market), each group in the order its orders
 * started resting. An emptied group is deleted, so departed traders and markets cost no memory.
 */
export class OrderIndex {
  private readonly groups = new Map<string, Set<OrderState>>();

  constructor(private readonly keyOf: (order: OrderState) => string) {}

  of(key: string): ReadonlySet<OrderState> {
    return this.groups.get(key) ?? NONE;
  }

  /** Every non-empty group with its key. */
  entries(): IterableIterator<[string, ReadonlySet<OrderState>]> {
    return this.groups.entries();
  }

  add(order: OrderState): void {
    const key = this.keyOf(order);
    let group = this.groups.get(key);
    if (!group) this.groups.set(key, (group = new Set()));
    group.add(order);
  }

  delete(order: OrderState): void {
    const key = this.keyOf(order);
    const group = this.groups.get(key);
    if (group?.delete(order) && group.size === 0) this.groups.delete(key);
  }
}
