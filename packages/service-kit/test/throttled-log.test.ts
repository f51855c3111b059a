import { ThrottledLog } from '../src/logging/throttled-log';

describe('ThrottledLog', () => {
  beforeEach(() => jest.useFakeTimers({ now: 0 }));
  afterEach(() => jest.useRealTimers());

  const lines: string[] = [];
  const say = (since: number, total: number) => lines.push(`${since}/${total}`);
  beforeEach(() => (lines.length = 0));

  it('says the first occurrence, then at most one line per period with how many happened since', () => {
    const log = new ThrottledLog(30_000);
    // One occurrence a second for 65 s.
    for (let s = 0; s <= 65; s++) {
      jest.setSystemTime(s * 1_000);
      log.occurred(say);
    }
    expect(lines).toEqual(['1/1', '30/31', '30/61']);
    expect(log.ended()).toBe(66);
  });

  it('says the first occurrence of a new series at once, and after a quiet period', () => {
    const log = new ThrottledLog(30_000);
    log.occurred(say);
    log.occurred(say);
    log.ended();
    log.occurred(say);
    expect(lines).toEqual(['1/1', '1/1']);
    expect(log.ended()).toBe(1);
    expect(log.ended()).toBe(0);
    // Never ended (the gateway's use): the next occurrence after a quiet period is said at once.
    const never = new ThrottledLog(30_000);
    never.occurred(say);
    jest.setSystemTime(120_000);
    never.occurred(say);
    expect(lines).toEqual(['1/1', '1/1', '1/1', '1/2']);
  });
});
