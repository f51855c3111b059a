import { loadMatchingEnv } from '../../src/config';

describe('CANCEL_STEP_ORDERS', () => {
  it('is 500 unless set', () => {
    expect(loadMatchingEnv({}).CANCEL_STEP_ORDERS).toBe(500);
    expect(loadMatchingEnv({ CANCEL_STEP_ORDERS: '1' }).CANCEL_STEP_ORDERS).toBe(1);
    expect(loadMatchingEnv({ CANCEL_STEP_ORDERS: '100000' }).CANCEL_STEP_ORDERS).toBe(100_000);
  });

  it.each(['0', '100001', '2.5', 'all'])('refuses %s', (value) => {
    expect(() => loadMatchingEnv({ CANCEL_STEP_ORDERS: value })).toThrow(/CANCEL_STEP_ORDERS/);
  });
});
