import { loadMarketDataEnv } from '../../src/config';

describe('market-data settings', () => {
  it('paces flushes every 50 ms unless told otherwise', () => {
    expect(loadMarketDataEnv({}).FLUSH_INTERVAL_MS).toBe(50);
    expect(loadMarketDataEnv({ FLUSH_INTERVAL_MS: '1' }).FLUSH_INTERVAL_MS).toBe(1);
    expect(loadMarketDataEnv({ FLUSH_INTERVAL_MS: '1000' }).FLUSH_INTERVAL_MS).toBe(1000);
  });

  it.each(['0', '1001', '2.5', 'soon'])('refuses FLUSH_INTERVAL_MS=%s', (value) => {
    expect(() => loadMarketDataEnv({ FLUSH_INTERVAL_MS: value })).toThrow(/FLUSH_INTERVAL_MS/);
  });

  it('gives a book gap 5 s before loading the books from order-matching unless told otherwise, 100 ms to 10 min', () => {
    expect(loadMarketDataEnv({}).BOOK_GAP_GRACE_MS).toBe(5_000);
    expect(loadMarketDataEnv({ BOOK_GAP_GRACE_MS: '100' }).BOOK_GAP_GRACE_MS).toBe(100);
    expect(loadMarketDataEnv({ BOOK_GAP_GRACE_MS: '600000' }).BOOK_GAP_GRACE_MS).toBe(600_000);
  });

  it.each(['99', '600001', '2.5', 'soon'])('refuses BOOK_GAP_GRACE_MS=%s', (value) => {
    expect(() => loadMarketDataEnv({ BOOK_GAP_GRACE_MS: value })).toThrow(/BOOK_GAP_GRACE_MS/);
  });
});
