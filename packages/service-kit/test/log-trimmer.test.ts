import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { trimLogs } from '../src/supervision/log-trimmer';

describe('trimLogs', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'log-trimmer-'));

  it('copies a file past the limit to .1 and empties it; a writer opened for appending goes on at the new end', () => {
    const file = path.join(dir, 'gateway.log');
    const fd = openSync(file, 'a');
    writeSync(fd, 'x'.repeat(150) + '\n');

    expect(trimLogs([file], 100)).toEqual([{ file, bytes: 151 }]);
    expect(readFileSync(`${file}.1`, 'utf8')).toBe('x'.repeat(150) + '\n');
    expect(statSync(file).size).toBe(0);

    writeSync(fd, 'after\n');
    closeSync(fd);
    // No hole of 151 bytes before the line: the write went to the end of the emptied file.
    expect(readFileSync(file, 'utf8')).toBe('after\n');
  });

  it('leaves files within the limit and files not written yet alone, and replaces an older copy', () => {
    const small = path.join(dir, 'catalog.log');
    const big = path.join(dir, 'market-data.log');
    const fd = openSync(small, 'a');
    writeSync(fd, 'ok\n');
    closeSync(fd);
    for (const round of ['first', 'second']) {
      const bigFd = openSync(big, 'a');
      writeSync(bigFd, `${round} `.repeat(30));
      closeSync(bigFd);
      expect(trimLogs([small, big, path.join(dir, 'missing.log')], 100).map((t) => t.file)).toEqual([big]);
      expect(readFileSync(`${big}.1`, 'utf8')).toBe(`${round} `.repeat(30));
    }
    expect(readFileSync(small, 'utf8')).toBe('ok\n');
    expect(existsSync(`${small}.1`)).toBe(false);
  });
});
