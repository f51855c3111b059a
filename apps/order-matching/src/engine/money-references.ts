import type { MoneyMoveKind } from './effects';

/** What a reference was first used for. */
export interface ReferencedMove {
  address: string;
  amount: number;
}

/**
 * The operator's references of deposits and withdrawals, one name space per kind. A reference names one
 * move for good, so that a request whose answer was lost (a timeout, a restart) can be sent again
 * without moving the money twice. Loaded at start from the journal; it grows with the moves that carry
 * one, which are few next to orders.
 */
export class MoneyReferences {
  private readonly moves = new Map<string, ReferencedMove>();

  get(kind: MoneyMoveKind, reference: string): ReferencedMove | undefined {
    return this.moves.get(`${kind}:${reference}`);
  }

  add(kind: MoneyMoveKind, reference: string, move: ReferencedMove): void {
    this.moves.set(`${kind}:${reference}`, move);
  }

  get size(): number {
    return this.moves.size;
  }
}
