/**
 * Fee formula of the market's schedule (docs/trading.md, "Fees"): fee = shares × rate ×
 * (p × (1 − p))^exponent, in collateral, rounded to 5 decimals (10 base units) with a minimum of
 * 0.00001 when positive.
 * Integers only: shares and p in base units (6 decimals), rate in parts per million.
 */
export interface FeeSchedule {
  ratePpm: number;
  exponent: number;
  takerOnly: boolean;
  rebateRatePpm: number;
}

const MICRO = 1_000_000n;
const FEE_STEP = 10n;

/**
 * The fee of shares at a price before rounding, as a numerator over the schedule's denominator
 * (`feeDenominator`): exact, and additive over fills, so that fees of several fills can be rounded as one.
 */
function exactFee(schedule: FeeSchedule, shares: number, price: number): bigint {
  if (schedule.ratePpm === 0 || shares === 0) return 0n;
  const p = BigInt(price);
  const variance = p * (MICRO - p); // p(1-p) in units of 1e-12
  let numerator = BigInt(shares) * BigInt(schedule.ratePpm);
  for (let i = 0; i < schedule.exponent; i++) numerator *= variance;
  return numerator;
}

function feeDenominator(schedule: FeeSchedule): bigint {
  return MICRO * (MICRO * MICRO) ** BigInt(schedule.exponent);
}

/** An exact fee (`exactFee`, or a sum of them) in base units: half up to 5 decimals, at least 0.00001 when positive. */
function roundFee(schedule: FeeSchedule, exact: bigint): number {
  if (exact === 0n) return 0;
  const denominator = feeDenominator(schedule);
  const steps = (exact * 2n + denominator * FEE_STEP) / (denominator * FEE_STEP * 2n);
  return steps === 0n ? Number(FEE_STEP) : Number(steps * FEE_STEP);
}

export function feeFor(schedule: FeeSchedule, shares: number, price: number): number {
  return roundFee(schedule, exactFee(schedule, shares, price));
}

/**
 * Fees of several fills rounded as one (docs/trading.md, "Fees"): each fill owes what it adds to the
 * rounded fee of all fills so far, so that they add up to what their order reserved for them.
 */
export class FeeTally {
  private exact = 0n;
  private owed = 0;

  constructor(private readonly schedule: FeeSchedule) {}

  /** What a fill of shares at a price adds to the fee of all fills so far. */
  add(shares: number, price: number): number {
    this.exact += exactFee(this.schedule, shares, price);
    const owed = roundFee(this.schedule, this.exact);
    const added = owed - this.owed;
    this.owed = owed;
    return added;
  }

  /** The fee of all fills so far. */
  get total(): number {
    return this.owed;
  }
}

/**
 * What a maker owes as its matched shares go from `from` to `to`: the fee of all its matched shares at
 * its price (all of a maker's fills are) after, less before. Its fills' fees thus add up to the fee of
 * what they matched, which the order reserved when it rested (found by a probe: rounded fill by fill,
 * each at least 0.00001, they outgrew it).
 */
export function makerFeeBetween(schedule: FeeSchedule, price: number, from: number, to: number): number {
  if (schedule.takerOnly) return 0;
  return feeFor(schedule, to, price) - feeFor(schedule, from, price);
}

/** A fill's fee held to `maxFeeRateBps` of its value (rounded down to the unit). In bigint, as `rebateFor`. */
export function capFee(fee: number, value: number, maxFeeRateBps: number): number {
  return Math.min(fee, Number((BigInt(value) * BigInt(maxFeeRateBps)) / 10_000n));
}

/**
 * The maker's rebate of a taker fee, rounded down. In bigint: as a double, fee × rate passes 2^53 once a
 * fill's fee passes about 9,007 USDC, and the rebate came out one base unit off (found by a review).
 */
export function rebateFor(schedule: FeeSchedule, fee: number): number {
  return Number((BigInt(fee) * BigInt(schedule.rebateRatePpm)) / MICRO);
}
