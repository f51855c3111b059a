import { encodeAddress, encodeBytes32, encodeUint, hashString, hashStruct, typedDataDigest, typeHash } from './eip712';
import { bytesOf } from './hex';

/**
 * ERC-7739 nested typed-data signatures, as smart wallets verify them under ERC-1271: the owner signs a
 * `TypedDataSign` struct that wraps the application's struct (`contents`) together with the wallet's own
 * EIP-712 domain, under the application's domain. The wallet receives
 * `innerSig(65) ‖ appDomainSeparator(32) ‖ contentsHash(32) ‖ contentsType ‖ uint16-BE(len(contentsType))`.
 */

/** The EIP-712 domain of the upstream deposit wallets (salt zero, verifyingContract = the wallet). */
export const DEPOSIT_WALLET_DOMAIN_NAME = 'DepositWallet';
export const DEPOSIT_WALLET_DOMAIN_VERSION = '1';
export const ZERO_BYTES32 = '0x' + '0'.repeat(64);

export interface Erc7739Envelope {
  /** The owner's 65-byte signature over the TypedDataSign digest. */
  innerSignature: Uint8Array;
  appDomainSeparator: Uint8Array;
  contentsHash: Uint8Array;
  /** The type string of the contents, e.g. `Order(uint256 salt,...)`. */
  contentsType: string;
}

const FIXED = 65 + 32 + 32;
const ASCII_TYPE = /^[A-Za-z_$][A-Za-z0-9_$]*\([ -~]*\)$/;

/** Splits a wrapped signature into its parts, or null when it is not one. */
export function parseErc7739Signature(signature: Uint8Array | string): Erc7739Envelope | null {
  const bytes = bytesOf(signature);
  if (!bytes || bytes.length < FIXED + 2) return null;
  const typeLength = (bytes[bytes.length - 2]! << 8) | bytes[bytes.length - 1]!;
  if (bytes.length !== FIXED + typeLength + 2) return null;
  const contentsType = Buffer.from(bytes.subarray(FIXED, FIXED + typeLength)).toString('latin1');
  if (!ASCII_TYPE.test(contentsType)) return null;
  return {
    innerSignature: bytes.subarray(0, 65),
    appDomainSeparator: bytes.subarray(65, 97),
    contentsHash: bytes.subarray(97, 129),
    contentsType,
  };
}

/** The wallet's own EIP-712 domain, which the TypedDataSign struct repeats. */
export interface WalletDomain {
  name: string;
  version: string;
  chainId: number | bigint;
  verifyingContract: string;
  salt: string;
}

/** `TypedDataSign(<Name> contents,string name,...,bytes32 salt)` followed by the contents type. */
export function typedDataSignType(contentsType: string): string {
  const name = contentsType.slice(0, contentsType.indexOf('('));
  return (
    `TypedDataSign(${name} contents,string name,string version,uint256 chainId,address verifyingContract,bytes32 salt)` +
    contentsType
  );
}

const memos = new Map<string, Uint8Array>();

/** Hashes of the few constant strings involved, computed once (a small bounded cache). */
function memo(key: string, compute: () => Uint8Array): Uint8Array {
  let value = memos.get(key);
  if (!value) {
    if (memos.size > 64) memos.clear();
    value = compute();
    memos.set(key, value);
  }
  return value;
}

/** The digest the owner signs: hashTypedData(appDomain, TypedDataSign{contents, wallet domain}). */
export function typedDataSignDigest(
  appDomainSeparator: Uint8Array,
  contentsHash: Uint8Array,
  contentsType: string,
  wallet: WalletDomain,
): Uint8Array {
  const structHash = hashStruct(
    memo(contentsType, () => typeHash(typedDataSignType(contentsType))),
    contentsHash,
    memo(`name:${wallet.name}`, () => hashString(wallet.name)),
    memo(`version:${wallet.version}`, () => hashString(wallet.version)),
    encodeUint(wallet.chainId, 'chainId'),
    encodeAddress(wallet.verifyingContract, 'verifyingContract'),
    encodeBytes32(wallet.salt, 'salt'),
  );
  return typedDataDigest(appDomainSeparator, structHash);
}

/** The upstream deposit wallet's domain for a wallet address. */
export function depositWalletDomain(wallet: string, chainId: number | bigint): WalletDomain {
  return {
    name: DEPOSIT_WALLET_DOMAIN_NAME,
    version: DEPOSIT_WALLET_DOMAIN_VERSION,
    chainId,
    verifyingContract: wallet,
    salt: ZERO_BYTES32,
  };
}
