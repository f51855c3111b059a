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
});
