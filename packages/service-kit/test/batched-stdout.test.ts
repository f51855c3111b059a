import { batchedStdout, type ChunkWrite } from '../src/logging/batched-stdout';

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));
const say = (message: string) => `said: ${message}`;

/** A write that records its chunks, failing with ENOSPC while `full.on`. */
function recordingWrite() {
  const writes: string[] = [];
  const full = { on: false };
  const write: ChunkWrite = (chunk, done) => {
    if (full.on) return done(Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' }));
    writes.push(chunk);
    done();
  };
  return { writes, full, write };
}

describe('batchedStdout', () => {
  it('writes the lines of one event-loop turn in one write, in order', async () => {
    const { writes, write } = recordingWrite();
    const sink = batchedStdout(say, write);
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
    const { writes, write } = recordingWrite();
    const sink = batchedStdout(say, write);
    const line = 'x'.repeat(40 * 1024);
    sink(line);
    sink(line);
    expect(writes).toEqual([`${line}\n${line}\n`]);
  });

  it('drops the lines of failed writes and says how many after the next write, which starts with a newline, succeeds', async () => {
    const { writes, full, write } = recordingWrite();
    const sink = batchedStdout(say, write);
    full.on = true;
    sink('a');
    sink('b');
    await nextTurn();
    sink('c');
    await nextTurn();
    full.on = false;
    sink('d');
    await nextTurn();
    expect(writes).toEqual(['\nd\n']);
    await nextTurn();
    const report = 'said: 3 log lines dropped: ENOSPC: no space left on device, write\n';
    expect(writes).toEqual(['\nd\n', report]);
    sink('e');
    await nextTurn();
    expect(writes).toEqual(['\nd\n', report, 'e\n']);
  });
});
