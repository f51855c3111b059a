import {
  domainSeparator,
  encodeAddress,
  encodeBytes32,
  encodeUint,
  hashStruct,
  typedDataDigest,
  typeHash,
  TypedDataError,
} from './eip712';
import { toHex } from './keccak';

/** The CLOB V2 order as it is signed (field order matters; `expiration` is not part of it). */
export const ORDER_V2_TYPE =
  'Order(uint256 salt,address maker,address signer,uint256 tokenId,uint256 makerAmount,uint256 takerAmount,' +
  'uint8 side,uint8 signatureType,uint256 timestamp,bytes32 metadata,bytes32 builder)';
export const ORDER_V2_TYPEHASH = typeHash(ORDER_V2_TYPE);

/** ORDER_V2_TYPE as the `types` of viem's or ethers' signTypedData, for clients that sign with them. */
export const ORDER_V2_TYPED_DATA_TYPES = {
  Order: [
    { name: 'salt', type: 'uint256' },
    { name: 'maker', type: 'address' },
    { name: 'signer', type: 'address' },
    { name: 'tokenId', type: 'uint256' },
    { name: 'makerAmount', type: 'uint256' },
    { name: 'takerAmount', type: 'uint256' },
    { name: 'side', type: 'uint8' },
    { name: 'signatureType', type: 'uint8' },
    { name: 'timestamp', type: 'uint256' },
    { name: 'metadata', type: 'bytes32' },
    { name: 'builder', type: 'bytes32' },
  ],
} as const;

export const CTF_EXCHANGE_DOMAIN_NAME = 'Polymarket CTF Exchange';
export const CTF_EXCHANGE_V2_DOMAIN_VERSION = '2';
export const POLYGON_CHAIN_ID = 137;
/** The upstream V2 exchange contracts (the same addresses on Polygon and Amoy). */
export const EXCHANGE_V2_CONTRACTS = {
  standard: '0xE111180000d2663C0091e4f400237545B87B996B',
  negRisk: '0xe2222d279d744050d28e00520010520000310F59',
} as const;

export const SignatureType = { EOA: 0, POLY_PROXY: 1, POLY_GNOSIS_SAFE: 2, POLY_1271: 3 } as const;
export type SignatureType = (typeof SignatureType)[keyof typeof SignatureType];

export type OrderSide = 'BUY' | 'SELL';

/** The signed fields of an order, as they arrive in the JSON body of POST /order. */
export interface OrderV2 {
  /** A JSON number upstream; decimal strings are accepted too. */
  salt: number | string;
  maker: string;
  signer: string;
  tokenId: string;
  makerAmount: string;
  takerAmount: string;
  side: OrderSide;
  signatureType: number;
  /** Creation time in milliseconds (a string). */
  timestamp: string;
  metadata: string;
  builder: string;
}

/** The order of the JSON body with its signature; `expiration` travels with it but is not signed. */
export interface SignedOrderV2 extends OrderV2 {
  expiration?: string;
  signature: string;
}

/** Which exchange an order is signed for. */
export interface ExchangeDomain {
  chainId: number | bigint;
  verifyingContract: string;
}

const separators = new Map<string, Uint8Array>();

/** The exchange's EIP-712 domain separator (domain version "2"), computed once per chain and contract. */
export function exchangeDomainSeparator(domain: ExchangeDomain): Uint8Array {
  const key = `${domain.chainId}:${domain.verifyingContract.toLowerCase()}`;
  let separator = separators.get(key);
  if (!separator) {
    separator = domainSeparator({
      name: CTF_EXCHANGE_DOMAIN_NAME,
      version: CTF_EXCHANGE_V2_DOMAIN_VERSION,
      chainId: domain.chainId,
      verifyingContract: domain.verifyingContract,
    });
    if (separators.size > 64) separators.clear();
    separators.set(key, separator);
  }
  return separator.slice();
}

function sideCode(side: unknown): Uint8Array {
  if (side === 'BUY' || side === 0) return encodeUint(0, 'side', 8);
  if (side === 'SELL' || side === 1) return encodeUint(1, 'side', 8);
  throw new TypedDataError('side must be BUY or SELL');
}

/** hashStruct(Order): what ERC-7739 calls the contents hash. Throws TypedDataError on a malformed field. */
export function orderV2StructHash(order: OrderV2): Uint8Array {
  return hashStruct(
    ORDER_V2_TYPEHASH,
    encodeUint(order.salt, 'salt'),
    encodeAddress(order.maker, 'maker'),
    encodeAddress(order.signer, 'signer'),
    encodeUint(order.tokenId, 'tokenId'),
    encodeUint(order.makerAmount, 'makerAmount'),
    encodeUint(order.takerAmount, 'takerAmount'),
    sideCode(order.side),
    encodeUint(order.signatureType, 'signatureType', 8),
    encodeUint(order.timestamp, 'timestamp'),
    encodeBytes32(order.metadata, 'metadata'),
    encodeBytes32(order.builder, 'builder'),
  );
}

/** The EIP-712 digest of an order under the exchange domain (32 bytes). */
export function orderV2Digest(order: OrderV2, domain: ExchangeDomain): Uint8Array {
  return typedDataDigest(exchangeDomainSeparator(domain), orderV2StructHash(order));
}

/** The order hash, which is also the order id: `0x` and 64 lower-case hex digits. */
export function hashOrderV2(order: OrderV2, domain: ExchangeDomain): string {
  return toHex(orderV2Digest(order, domain));
}
