/**
 * Fee formula of the market's schedule (docs/fees.md): fee = shares × rate × (p × (1 − p))^exponent,
 * in collateral, rounded to 5 decimals (10 base units) with a minimum of 0.00001 when positive.
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

export function feeFor(schedule: FeeSchedule, shares: number, price: number): number {
  if (schedule.ratePpm === 0 || shares === 0) return 0;
  const p = BigInt(price);
  const variance = p * (MICRO - p); // p(1-p) in units of 1e-12
  let numerator = BigInt(shares) * BigInt(schedule.ratePpm);
  let denominator = MICRO;
  for (let i = 0; i < schedule.exponent; i++) {
    numerator *= variance;
    denominator *= MICRO * MICRO;
  }
  // Round half up to a multiple of 10 base units (5 decimals).
  const steps = (numerator * 2n + denominator * FEE_STEP) / (denominator * FEE_STEP * 2n);
  const fee = steps * FEE_STEP;
  if (fee === 0n && numerator > 0n) return Number(FEE_STEP);
  return Number(fee);
}

/** The largest fee an order can owe over its fills: at the price closest to 0.5 it may trade at. */
export function maxFeeFor(schedule: FeeSchedule, shares: number, worstPrice: number): number {
  return feeFor(schedule, shares, Math.min(worstPrice, 500_000));
}

export function rebateFor(schedule: FeeSchedule, fee: number): number {
  return Math.floor((fee * schedule.rebateRatePpm) / 1_000_000);
}

/** `fee_rate_bps` of trades and `base_fee` of /fee-rate: the rate in basis points. */
export function rateBps(schedule: FeeSchedule): number {
  return Math.round(schedule.ratePpm / 100);
}
