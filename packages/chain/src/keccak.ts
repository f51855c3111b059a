import { keccak_256 } from '@noble/hashes/sha3';

interface NativeKeccak {
  update(data: Buffer): NativeKeccak;
  digest(): Buffer;
}

/**
 * keccak256 on the native addon of the `keccak` package (about 6 times faster than pure JS on the
 * 300-400 byte inputs of order hashing), with @noble/hashes as the fallback when the addon does not load.
 */
let native: ((algorithm: 'keccak256') => NativeKeccak) | null = null;
let nativeError: string | null = null;
try {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  native = require('keccak/bindings');
} catch (error) {
  nativeError = error instanceof Error ? error.message : String(error);
}

/** Why the native keccak addon did not load, or null when it did. */
export function nativeKeccakLoadError(): string | null {
  return nativeError;
}

/** Throws when keccak256 runs on the pure-JS fallback. */
export function assertNativeKeccak(): void {
  if (nativeError === null) return;
  throw new Error(
    `the native keccak addon did not load (${nativeError}); hashing would fall back to pure JS. ` +
      'Reinstall dependencies with install scripts allowed for keccak (pnpm-workspace.yaml onlyBuiltDependencies).',
  );
}

export function keccak256(data: Uint8Array): Uint8Array {
  if (native) return native('keccak256').update(Buffer.from(data.buffer, data.byteOffset, data.byteLength)).digest();
  return keccak_256(data);
}

export function toHex(bytes: Uint8Array): string {
  return '0x' + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

// These return Buffers (Uint8Arrays) without copying them again: order hashing calls them a dozen times
// per order, and the copies and regular expressions cost more than the hashing.
export function fromHex(hex: string): Uint8Array {
  return Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'hex');
}

/** Big-endian 32-byte encoding of a non-negative integer, as abi.encodePacked writes a uint256. */
export function uint256(value: bigint): Uint8Array {
  const word = Buffer.alloc(32);
  if (value <= 0xffffffffffffffffn) word.writeBigUInt64BE(value, 24);
  else word.write(value.toString(16).padStart(64, '0'), 'hex');
  return word;
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  return Buffer.concat(parts);
}
