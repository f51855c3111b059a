import { domainSeparator, encodeAddress, encodeUint, hashString, hashStruct, typedDataDigest, typeHash, TypedDataError } from './eip712';
import { toHex } from './keccak';
import { tryRecoverAddress } from './secp256k1';

/**
 * L1 authentication: a wallet proves control by signing the ClobAuth struct (EIP-712, domain
 * "ClobAuthDomain" version "1" with no verifying contract), sent in the POLY_/SVC_ L1 headers.
 */
export const CLOB_AUTH_DOMAIN_NAME = 'ClobAuthDomain';
export const CLOB_AUTH_DOMAIN_VERSION = '1';
export const CLOB_AUTH_MESSAGE = 'This message attests that I control the given wallet';
export const CLOB_AUTH_TYPE = 'ClobAuth(address address,string timestamp,uint256 nonce,string message)';
const CLOB_AUTH_TYPEHASH = typeHash(CLOB_AUTH_TYPE);
const MESSAGE_HASH = hashString(CLOB_AUTH_MESSAGE);

export interface ClobAuthFields {
  address: string;
  /** Unix seconds, signed as the string the header carries. */
  timestamp: string | number;
  nonce: bigint | number | string;
  chainId: number | bigint;
}

const domains = new Map<string, Uint8Array>();

function clobAuthDomainSeparator(chainId: number | bigint): Uint8Array {
  const key = String(chainId);
  let separator = domains.get(key);
  if (!separator) {
    separator = domainSeparator({ name: CLOB_AUTH_DOMAIN_NAME, version: CLOB_AUTH_DOMAIN_VERSION, chainId });
    if (domains.size > 16) domains.clear();
    domains.set(key, separator);
  }
  return separator;
}

export function clobAuthDigestBytes(fields: ClobAuthFields): Uint8Array {
  const structHash = hashStruct(
    CLOB_AUTH_TYPEHASH,
    encodeAddress(fields.address, 'address'),
    hashString(String(fields.timestamp)),
    encodeUint(fields.nonce, 'nonce'),
    MESSAGE_HASH,
  );
  return typedDataDigest(clobAuthDomainSeparator(fields.chainId), structHash);
}

/** The EIP-712 digest a wallet signs for L1 authentication, `0x` hex. */
export function clobAuthDigest(fields: ClobAuthFields): string {
  return toHex(clobAuthDigestBytes(fields));
}

/** True when `signature` is `address`'s ClobAuth signature for this timestamp, nonce and chain. */
export function verifyClobAuth(fields: ClobAuthFields & { signature: Uint8Array | string }): boolean {
  let digest: Uint8Array;
  try {
    digest = clobAuthDigestBytes(fields);
  } catch (error) {
    if (error instanceof TypedDataError) return false;
    throw error;
  }
  const recovered = tryRecoverAddress(digest, fields.signature);
  return recovered !== null && recovered === fields.address.toLowerCase();
}
