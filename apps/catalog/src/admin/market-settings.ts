import { parseUnits, type PatchMarketRequest } from '@exchange/contracts';

type Settings = Pick<PatchMarketRequest['body'], 'tickSize' | 'minOrderSize' | 'feeSchedule'>;

interface SettingsColumns {
  tickSize: number;
  minOrderSize: bigint;
  feeRatePpm: number;
  feeExponent: number;
  feeTakerOnly: boolean;
  rebateRatePpm: number;
}

/** The market columns of the trading settings given (fee rates already in parts per million); none for those left out. */
export function settingsColumns(settings: Settings): Partial<SettingsColumns> {
  const { tickSize, minOrderSize, feeSchedule: fee } = settings;
  return {
    ...(tickSize !== undefined && { tickSize: parseUnits(tickSize)! }),
    ...(minOrderSize !== undefined && { minOrderSize: BigInt(minOrderSize) }),
    ...(fee !== undefined && { feeRatePpm: fee.rate, feeExponent: fee.exponent, feeTakerOnly: fee.takerOnly, rebateRatePpm: fee.rebateRate }),
  };
}
