/**
 * Decimal strings <-> integer base units (6 decimals). Money never passes through floating point:
 * parsing works on the digits, not on Number(value).
 */
export const UNIT_DECIMALS = 6;
export const UNIT = 1_000_000;

const DECIMAL = /^(\d{1,15})(?:\.(\d{1,6}))?$/;

/** Parses a non-negative decimal with at most 6 fraction digits into base units, or null. */
export function parseUnits(value: string): number | null {
  const match = DECIMAL.exec(value);
  if (!match) return null;
  const whole = Number(match[1]);
  const fraction = Number((match[2] ?? '').padEnd(UNIT_DECIMALS, '0'));
  const units = whole * UNIT + fraction;
  return Number.isSafeInteger(units) ? units : null;
}

/**
 * Base units as a JSON number, for the fields upstream types as numbers (a tick of 0.01, a minimum of 5):
 * read from the exact decimal text, so it is the nearest double to that decimal.
 */
export function unitsAsNumber(units: number): number {
  return Number(formatUnits(units));
}

/** Formats base units as the shortest decimal string ("5", "0.01", "4.333318"). */
export function formatUnits(units: number): string {
  const negative = units < 0;
  const abs = Math.abs(units);
  const whole = Math.floor(abs / UNIT);
  const fraction = String(abs % UNIT).padStart(UNIT_DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
