import { rebateFor, type FeeSchedule } from '../../../src/engine/fees';

describe("a maker's rebate of a taker fee", () => {
  const schedule = (rebateRatePpm: number): FeeSchedule => ({ ratePpm: 20_000, exponent: 1, takerOnly: false, rebateRatePpm });

  it('is the fee times the rebate rate, rounded down to a base unit', () => {
    expect(rebateFor(schedule(250_000), 1_000_010)).toBe(250_002);
    expect(rebateFor(schedule(0), 1_000_010)).toBe(0);
    expect(rebateFor(schedule(1_000_000), 777)).toBe(777);
  });

  it('stays exact for fees whose product with the rate passes 2^53 (a fee of 735,543.62 USDC)', () => {
    // As doubles, 735543620962 × 681185 / 10^6 floors to 501041281445; exactly it is 501041281444.9...
    expect(rebateFor(schedule(681_185), 735_543_620_962)).toBe(501_041_281_444);
  });
});
