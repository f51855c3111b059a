import { DroppedLines } from '../src/logging/dropped-lines';

const failure = (message: string) => new Error(message);

describe('DroppedLines', () => {
  it('says nothing after a write when no line was lost', () => {
    const dropped = new DroppedLines();
    expect(dropped.gap).toBe(false);
    expect(dropped.written()).toBeUndefined();
  });

  it('says the lines lost since the last success with the cause of the gap, once, and the gap is closed', () => {
    const dropped = new DroppedLines();
    dropped.dropped(2, failure('ENOSPC: no space left on device, write'));
    dropped.dropped(3, failure('EPIPE: broken pipe, write'));
    expect(dropped.gap).toBe(true);
    expect(dropped.written()).toBe('5 log lines dropped: ENOSPC: no space left on device, write');
    expect(dropped.gap).toBe(false);
    expect(dropped.written()).toBeUndefined();
  });

  it('counts a new gap from zero, with its own cause', () => {
    const dropped = new DroppedLines();
    dropped.dropped(4, failure('ENOSPC: no space left on device, write'));
    dropped.written();
    dropped.dropped(1, failure('write EPIPE'));
    expect(dropped.written()).toBe('1 log line dropped: write EPIPE');
  });
});
