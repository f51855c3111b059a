import { createRequire } from 'node:module';
import path from 'node:path';
import { keccak_256 } from '@noble/hashes/sha3';

/** The sponge of the `keccak` package's native addon (XKCP), without the package's stream wrapper. */
interface KeccakSponge {
  initialize(rate: number, capacity: number): void;
  absorb(data: Buffer): void;
  /** Pads (Keccak's 0x01 suffix) on the first squeeze; a new Buffer. */
  squeeze(length: number): Buffer;
}

/**
 * keccak256 on the native addon of the `keccak` package, with @noble/hashes as the fallback when the
 * addon does not load. The package's own API builds a readable-stream Transform for every hash, which
 * cost more than hashing an order (about 6 µs of a 6–12 µs call); one sponge is reused instead, which
 * is safe because a hash runs start to end without yielding.
 */
let sponge: KeccakSponge | null = null;
let nativeError: string | null = null;
try {
  const packageDir = path.dirname(require.resolve('keccak/package.json'));
  // node-gyp-build as the package itself resolves it (a dependency of `keccak`, not of this package).
  const load = createRequire(path.join(packageDir, 'bindings.js'))('node-gyp-build') as (dir: string) => unknown;
  const Addon = load(packageDir);
  if (typeof Addon !== 'function') throw new Error('the keccak addon exports no sponge');
  sponge = new (Addon as new () => KeccakSponge)();
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

/** Keccak-256 as Ethereum uses it: rate 1088 bits, capacity 512. */
export function keccak256(data: Uint8Array): Uint8Array {
  if (!sponge) return keccak_256(data);
  sponge.initialize(1088, 512);
  sponge.absorb(Buffer.isBuffer(data) ? data : Buffer.from(data.buffer, data.byteOffset, data.byteLength));
  return sponge.squeeze(32);
}

export function toHex(bytes: Uint8Array): string {
  return '0x' + Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

// These return Buffers as they are (a Buffer is a Uint8Array): copying them into plain Uint8Arrays
// gained nothing.
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
