import { batchedStdout } from '../src/logging/batched-stdout';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

describe('batchedStdout', () => {
  it('writes the lines of one event-loop turn in one write, in order', async () => {
    const writes: string[] = [];
    const sink = batchedStdout((chunk) => writes.push(chunk));
    sink('a');
    sink('b');
    expect(writes).toEqual([]);
    await nextTurn();
    expect(writes).toEqual(['a\nb\n']);
    sink('c');
    await nextTurn();
    expect(writes).toEqual(['a\nb\n', 'c\n']);
  });

  it('writes at once when a turn has logged more than 64 KiB', () => {
    const writes: string[] = [];
    const sink = batchedStdout((chunk) => writes.push(chunk));
    const line = 'x'.repeat(40 * 1024);
    sink(line);
    sink(line);
    expect(writes).toEqual([`${line}\n${line}\n`]);
  });
});
