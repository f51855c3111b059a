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

describe('MAX_OPEN_ORDERS_PER_ACCOUNT', () => {
  it('is 10,000 unless set', () => {
    expect(loadMatchingEnv({}).MAX_OPEN_ORDERS_PER_ACCOUNT).toBe(10_000);
    expect(loadMatchingEnv({ MAX_OPEN_ORDERS_PER_ACCOUNT: '1' }).MAX_OPEN_ORDERS_PER_ACCOUNT).toBe(1);
  });

  it.each(['0', '10000001', '1e3x'])('refuses %s', (value) => {
    expect(() => loadMatchingEnv({ MAX_OPEN_ORDERS_PER_ACCOUNT: value })).toThrow(/MAX_OPEN_ORDERS_PER_ACCOUNT/);
  });
});
