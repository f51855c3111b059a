import type { MoneyMoveKind } from './effects';

/** What a reference was first used for (`conditionId` empty for deposits and withdrawals). */
export interface ReferencedMove {
  address: string;
  conditionId: string;
  amount: number;
}

/**
 * The references of money moves. A reference names one move for good, so that a request whose answer
 * was lost (a timeout, a restart) can be sent again without moving the money twice. The operator's
 * (deposits, withdrawals) are one name space per kind; a trader's (splits, merges) are its own, per
 * kind and account. Loaded at start from the journal; it grows with the moves that carry one, which
 * are few next to orders.
 */
export class MoneyReferences {
  private readonly moves = new Map<string, ReferencedMove>();

  get(kind: MoneyMoveKind, reference: string, address: string): ReferencedMove | undefined {
    return this.moves.get(key(kind, reference, address));
  }

  add(kind: MoneyMoveKind, reference: string, move: ReferencedMove): void {
    this.moves.set(key(kind, reference, move.address), move);
  }

  get size(): number {
    return this.moves.size;
  }
}

function key(kind: MoneyMoveKind, reference: string, address: string): string {
  return kind === 'split' || kind === 'merge' ? `${kind}:${address}:${reference}` : `${kind}:${reference}`;
}
