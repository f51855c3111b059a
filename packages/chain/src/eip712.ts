import { parseHex } from './hex';
import { concatBytes, keccak256, uint256 } from './keccak';

/**
 * A small EIP-712 hasher for the fixed struct types this exchange verifies (orders, ClobAuth, ERC-7739
 * envelopes). Each struct is hashed by hand from its type string: no general type parser is needed.
 */

export const EIP712_DOMAIN_TYPE = 'EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)';
/** The domain ClobAuth uses: it names no verifying contract. */
export const EIP712_DOMAIN_WITHOUT_CONTRACT_TYPE = 'EIP712Domain(string name,string version,uint256 chainId)';

/** A value that cannot be encoded as the EIP-712 type it is meant to be. */
export class TypedDataError extends Error {}

export function typeHash(type: string): Uint8Array {
  return keccak256(Buffer.from(type, 'utf8'));
}

/** `string` and `bytes` members are encoded as the hash of their contents. */
export function hashString(value: string): Uint8Array {
  return keccak256(Buffer.from(value, 'utf8'));
}

const DECIMAL = /^[0-9]{1,78}$/;

/** A uint from a JSON value: a decimal string, a safe non-negative integer or a bigint. */
export function toUint(value: unknown, field: string, bits = 256): bigint {
  let n: bigint;
  if (typeof value === 'bigint') n = value;
  else if (typeof value === 'number' && Number.isSafeInteger(value)) n = BigInt(value);
  else if (typeof value === 'string' && DECIMAL.test(value)) n = BigInt(value);
  else throw new TypedDataError(`${field} must be an unsigned integer`);
  if (n < 0n || n >= 1n << BigInt(bits)) throw new TypedDataError(`${field} does not fit in uint${bits}`);
  return n;
}

export function encodeUint(value: unknown, field: string, bits = 256): Uint8Array {
  return uint256(toUint(value, field, bits));
}

export function encodeAddress(value: unknown, field: string): Uint8Array {
  const bytes = typeof value === 'string' && value.startsWith('0x') ? parseHex(value, 20) : null;
  if (!bytes) throw new TypedDataError(`${field} must be a 0x address`);
  const word = new Uint8Array(32);
  word.set(bytes, 12);
  return word;
}

export function encodeBytes32(value: unknown, field: string): Uint8Array {
  const bytes = typeof value === 'string' && value.startsWith('0x') ? parseHex(value, 32) : null;
  if (!bytes) throw new TypedDataError(`${field} must be 0x and 32 bytes of hex`);
  return bytes;
}

/** hashStruct: keccak256(typeHash ‖ encoded members), each member already a 32-byte word. */
export function hashStruct(structTypeHash: Uint8Array, ...members: Uint8Array[]): Uint8Array {
  return keccak256(concatBytes(structTypeHash, ...members));
}

export interface Eip712Domain {
  name: string;
  version: string;
  chainId: bigint | number;
  /** Omitted for domains without one (ClobAuth). */
  verifyingContract?: string;
}

const DOMAIN_TYPEHASH = typeHash(EIP712_DOMAIN_TYPE);
const DOMAIN_WITHOUT_CONTRACT_TYPEHASH = typeHash(EIP712_DOMAIN_WITHOUT_CONTRACT_TYPE);

export function domainSeparator(domain: Eip712Domain): Uint8Array {
  const common = [hashString(domain.name), hashString(domain.version), encodeUint(domain.chainId, 'chainId')];
  if (domain.verifyingContract === undefined) return hashStruct(DOMAIN_WITHOUT_CONTRACT_TYPEHASH, ...common);
  return hashStruct(DOMAIN_TYPEHASH, ...common, encodeAddress(domain.verifyingContract, 'verifyingContract'));
}

const PREFIX = new Uint8Array([0x19, 0x01]);

/** The digest that is signed: keccak256(0x1901 ‖ domainSeparator ‖ hashStruct(message)). */
export function typedDataDigest(separator: Uint8Array, structHash: Uint8Array): Uint8Array {
  return keccak256(concatBytes(PREFIX, separator, structHash));
}
