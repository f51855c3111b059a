import { bytesOf } from './hex';
import { keccak256 } from './keccak';

type Secp256k1 = typeof import('secp256k1');

/**
 * The `secp256k1` package loads its native addon and silently falls back to a pure-JS implementation
 * (about 25 times slower) when the addon does not load; `assertNativeSecp256k1` makes that loud.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const secp256k1: Secp256k1 = require('secp256k1');

/** Why the native addon did not load, or null when it did. */
export function nativeSecp256k1LoadError(): string | null {
  try {
    // The package's own entry point tries exactly this and falls back to `./elliptic` on failure.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require('secp256k1/bindings');
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
  // Identity check without loading the fallback: it is in the module cache only if the package used it.
  const fallback = require.cache[require.resolve('secp256k1/elliptic')];
  if (fallback && fallback.exports === secp256k1) return 'the secp256k1 package resolved to its JS fallback';
  return null;
}

/** Throws when signature recovery would run on the pure-JS fallback instead of the native addon. */
export function assertNativeSecp256k1(): void {
  const problem = nativeSecp256k1LoadError();
  if (problem === null) return;
  throw new Error(
    `the native secp256k1 addon did not load (${problem}); signature recovery would fall back to pure JS. ` +
      'Reinstall dependencies with install scripts allowed for secp256k1 (pnpm-workspace.yaml onlyBuiltDependencies) ' +
      'on a platform it ships a prebuilt addon for (linux-x64, darwin-arm64, win32-x64), or with a C++ toolchain.',
  );
}

/** Half the curve order: signatures with a larger `s` are the malleable twin and are refused (EIP-2). */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n;

export class InvalidSignatureError extends Error {}

/**
 * The lower-case 0x address whose key made `signature` (r ‖ s ‖ v, 65 bytes; v 27/28 or 0/1) over the
 * 32-byte `digest`. Throws InvalidSignatureError when the signature is malformed, malleable (high s) or
 * recovers no key.
 */
export function recoverAddress(digest: Uint8Array | string, signature: Uint8Array | string): string {
  const hash = bytesOf(digest, 32);
  if (!hash) throw new InvalidSignatureError('digest must be 32 bytes');
  const sig = bytesOf(signature, 65);
  if (!sig) throw new InvalidSignatureError('signature must be 65 bytes (r, s, v)');
  const v = sig[64]!;
  const recid = v >= 27 ? v - 27 : v;
  if (recid !== 0 && recid !== 1) throw new InvalidSignatureError(`invalid recovery byte v=${v}`);
  const s = BigInt('0x' + Buffer.from(sig.subarray(32, 64)).toString('hex'));
  if (s > HALF_N) throw new InvalidSignatureError('signature s is in the upper half of the curve order');
  let publicKey: Uint8Array;
  try {
    publicKey = secp256k1.ecdsaRecover(sig.subarray(0, 64), recid, hash, false);
  } catch (error) {
    throw new InvalidSignatureError(error instanceof Error ? error.message : 'no public key recovers');
  }
  return '0x' + Buffer.from(keccak256(publicKey.subarray(1)).subarray(12)).toString('hex');
}

/** recoverAddress, with null instead of an error for an invalid signature. */
export function tryRecoverAddress(digest: Uint8Array | string, signature: Uint8Array | string): string | null {
  try {
    return recoverAddress(digest, signature);
  } catch (error) {
    if (error instanceof InvalidSignatureError) return null;
    throw error;
  }
}
