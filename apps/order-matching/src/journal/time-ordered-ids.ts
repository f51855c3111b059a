import { randomBytes } from 'node:crypto';

/**
 * Ids that sort by the time they were made, for the journal's keys: a random UUID or hash lands on a
 * random page of its B-tree index, and the first change of each page after a checkpoint writes the
 * whole 8 KB page to the WAL; ids made in time order land on the index's last pages. Measured before:
 * the random keys of trades, trade makers, price history and batches took a third of the journal's
 * full-page writes (docs/performance.md).
 */

/** A UUID version 7 (RFC 9562): 48 bits of Unix milliseconds, then 74 random bits. */
export function uuidV7(now = Date.now()): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A batch id shaped like a transaction hash (0x and 64 hex digits): 48 bits of Unix milliseconds, then random. */
export function timeOrderedHash(now = Date.now()): string {
  const bytes = randomBytes(32);
  bytes.writeUIntBE(now, 0, 6);
  return `0x${bytes.toString('hex')}`;
}
