import { randomBytes } from 'node:crypto';

/**
 * Ids that sort by the time they were made, for the journal's keys: a random UUID or hash lands on a
 * random page of its B-tree index, and the first change of each page after a checkpoint writes the
 * whole 8 KB page to the WAL; ids made in time order land on the index's last pages. Measured before:
 * the random keys of trades, trade makers, price history and batches took a third of the journal's
 * full-page writes (docs/performance.md).
 */

const TAIL_BITS = 74n;
const TAIL_MAX = (1n << TAIL_BITS) - 1n;

/**
 * UUIDs version 7 (RFC 9562): 48 bits of Unix milliseconds, then 74 bits that start at random each
 * millisecond and count up within it (the RFC's monotonic method), so that ids sort in the order they
 * were made, also within a millisecond and across a clock stepped back: a trade's id orders the trades
 * of one millisecond (order-matching's "last trade" of a market is the highest id of its last match
 * time; with random bits it was any of that millisecond's trades).
 */
export class UuidV7Source {
  private lastMs = -1;
  private tail = 0n;

  next(now = Date.now()): string {
    if (now > this.lastMs) {
      this.lastMs = now;
      this.tail = randomTail();
    } else if (this.tail < TAIL_MAX) this.tail += 1n;
    else {
      // 2^72 ids in one millisecond: never in practice; the next millisecond keeps the order.
      this.lastMs += 1;
      this.tail = randomTail();
    }
    const bytes = Buffer.alloc(16);
    bytes.writeUIntBE(this.lastMs, 0, 6);
    const randA = Number(this.tail >> 62n);
    bytes[6] = 0x70 | (randA >> 8);
    bytes[7] = randA & 0xff;
    // The variant's bits 10, then the low 62 bits of the tail.
    bytes.writeBigUInt64BE((1n << 63n) | (this.tail & ((1n << 62n) - 1n)), 8);
    const hex = bytes.toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}

/** 72 random bits: the top two of the 74 clear, room to count up within the millisecond. */
function randomTail(): bigint {
  return BigInt(`0x${randomBytes(9).toString('hex')}`);
}

/** A batch id shaped like a transaction hash (0x and 64 hex digits): 48 bits of Unix milliseconds, then random. */
export function timeOrderedHash(now = Date.now()): string {
  const bytes = randomBytes(32);
  bytes.writeUIntBE(now, 0, 6);
  return `0x${bytes.toString('hex')}`;
}
