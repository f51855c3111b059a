import { keccak_256 } from '@noble/hashes/sha3';

export function keccak256(data: Uint8Array): Uint8Array {
  return keccak_256(data);
}

export function toHex(bytes: Uint8Array): string {
  return '0x' + Buffer.from(bytes).toString('hex');
}

export function fromHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex.replace(/^0x/, ''), 'hex'));
}

/** Big-endian 32-byte encoding of a non-negative integer, as abi.encodePacked writes a uint256. */
export function uint256(value: bigint): Uint8Array {
  return fromHex(value.toString(16).padStart(64, '0'));
}

export function concatBytes(...parts: Uint8Array[]): Uint8Array {
  return new Uint8Array(Buffer.concat(parts));
}
