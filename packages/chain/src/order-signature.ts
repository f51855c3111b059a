import { typedDataDigest, TypedDataError } from './eip712';
import { depositWalletDomain, parseErc7739Signature, typedDataSignDigest } from './erc7739';
import { equalBytes } from './hex';
import { toHex } from './keccak';
import { exchangeDomainSeparator, ORDER_V2_TYPE, orderV2StructHash, SignatureType, type ExchangeDomain, type OrderV2 } from './order-v2';
import { tryRecoverAddress } from './secp256k1';

export interface OrderV2Verification {
  /** The order hash (= order id), `0x` hex. */
  orderHash: string;
  /**
   * Who signed, lower-case, or null when the signature does not verify:
   * - type 0 (EOA): the signer, which is also the maker;
   * - types 1 and 2 (proxy, Safe): the signer EOA; that the maker is its wallet is for the caller to check;
   * - type 3 (POLY_1271 deposit wallet): the owner EOA recovered from the ERC-7739 envelope; signer and
   *   maker are the wallet, and that the wallet belongs to this owner is for the caller to check.
   */
  owner: string | null;
}

const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/**
 * Checks an order's signature as the exchange contract would, short of on-chain state. Returns null when
 * a signed field is malformed (no order hash exists then).
 */
export function verifyOrderV2(order: OrderV2, signature: Uint8Array | string, domain: ExchangeDomain): OrderV2Verification | null {
  let structHash: Uint8Array;
  try {
    structHash = orderV2StructHash(order);
  } catch (error) {
    if (error instanceof TypedDataError) return null;
    throw error;
  }
  const separator = exchangeDomainSeparator(domain);
  const digest = typedDataDigest(separator, structHash);
  return { orderHash: toHex(digest), owner: recoverOwner(order, signature, domain, separator, structHash, digest) };
}

function recoverOwner(
  order: OrderV2,
  signature: Uint8Array | string,
  domain: ExchangeDomain,
  separator: Uint8Array,
  structHash: Uint8Array,
  digest: Uint8Array,
): string | null {
  switch (order.signatureType) {
    case SignatureType.EOA: {
      const recovered = tryRecoverAddress(digest, signature);
      return recovered && same(recovered, order.signer) && same(order.signer, order.maker) ? recovered : null;
    }
    case SignatureType.POLY_PROXY:
    case SignatureType.POLY_GNOSIS_SAFE: {
      const recovered = tryRecoverAddress(digest, signature);
      return recovered && same(recovered, order.signer) ? recovered : null;
    }
    case SignatureType.POLY_1271: {
      if (!same(order.signer, order.maker)) return null;
      const envelope = parseErc7739Signature(signature);
      if (!envelope || envelope.contentsType !== ORDER_V2_TYPE) return null;
      if (!equalBytes(envelope.appDomainSeparator, separator) || !equalBytes(envelope.contentsHash, structHash)) return null;
      const wallet = depositWalletDomain(order.signer, domain.chainId);
      return tryRecoverAddress(typedDataSignDigest(separator, structHash, ORDER_V2_TYPE, wallet), envelope.innerSignature);
    }
    default:
      return null;
  }
}

/** The lower-case address that owns the order's signature (see OrderV2Verification.owner), or null. */
export function verifyOrderSignature(order: OrderV2, signature: Uint8Array | string, domain: ExchangeDomain): string | null {
  return verifyOrderV2(order, signature, domain)?.owner ?? null;
}
