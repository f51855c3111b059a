import type { Rewards } from '@exchange/contracts';
import { isScoring } from '../../src/books/order-scoring';

const rewards = (min_size: number, max_spread: number): Rewards => ({ rates: [{ asset_address: `0x${'c'.repeat(40)}`, rewards_daily_rate: 10 }], min_size, max_spread });

describe('isScoring', () => {
  const mid = 500_000;

  it('counts an order within max_spread cents of the midpoint, either side, the edge included', () => {
    expect(isScoring({ price: 470_000, remaining: 20_000_000 }, mid, rewards(20, 3))).toBe(true);
    expect(isScoring({ price: 530_000, remaining: 20_000_000 }, mid, rewards(20, 3))).toBe(true);
    expect(isScoring({ price: 469_999, remaining: 20_000_000 }, mid, rewards(20, 3))).toBe(false);
    expect(isScoring({ price: 530_001, remaining: 20_000_000 }, mid, rewards(20, 3))).toBe(false);
  });

  it('needs min_size shares still open', () => {
    expect(isScoring({ price: 490_000, remaining: 19_999_999 }, mid, rewards(20, 3))).toBe(false);
    expect(isScoring({ price: 490_000, remaining: 1 }, mid, rewards(0, 3))).toBe(true);
  });

  it('reads fractional settings in base units', () => {
    // 3.5 cents: 35,000 base units of price; 12.5 shares.
    expect(isScoring({ price: 465_000, remaining: 12_500_000 }, mid, rewards(12.5, 3.5))).toBe(true);
    expect(isScoring({ price: 464_999, remaining: 12_500_000 }, mid, rewards(12.5, 3.5))).toBe(false);
    expect(isScoring({ price: 465_000, remaining: 12_499_999 }, mid, rewards(12.5, 3.5))).toBe(false);
  });

  it('with a max_spread of 0, counts only orders at the midpoint', () => {
    expect(isScoring({ price: mid, remaining: 5_000_000 }, mid, rewards(0, 0))).toBe(true);
    expect(isScoring({ price: mid - 10_000, remaining: 5_000_000 }, mid, rewards(0, 0))).toBe(false);
  });
});
