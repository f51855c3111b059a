const HEX = /^(?:0x)?([0-9a-fA-F]*)$/;

/**
 * Strict hex decoding: an optional `0x`, an even number of hex digits and nothing else (Buffer's own
 * decoder silently stops at the first bad character). With `length`, the result must have that many bytes.
 * Returns null when the input does not qualify.
 */
export function parseHex(value: string, length?: number): Uint8Array | null {
  const match = HEX.exec(value);
  if (!match) return null;
  const digits = match[1]!;
  if (digits.length % 2 !== 0 || (length !== undefined && digits.length !== length * 2)) return null;
  return Buffer.from(digits, 'hex');
}

/** Bytes as given, or decoded from hex (null when the hex is malformed). */
export function bytesOf(value: Uint8Array | string, length?: number): Uint8Array | null {
  if (typeof value === 'string') return parseHex(value, length);
  if (length !== undefined && value.length !== length) return null;
  return value;
}

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}
