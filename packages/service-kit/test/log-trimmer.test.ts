import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, statSync, writeFileSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { LOG_PIECE_BYTES, logLimits, trimLogs } from '../src/supervision/log-trimmer';

describe('trimLogs', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'log-trimmer-'));

  it('copies a file past a piece to .1 and empties it; a writer opened for appending goes on at the new end', () => {
    const file = path.join(dir, 'gateway.log');
    const fd = openSync(file, 'a');
    writeSync(fd, 'x'.repeat(150) + '\n');

    expect(trimLogs([file], { pieceBytes: 100, pieces: 3 })).toEqual([{ file, bytes: 151 }]);
    expect(readFileSync(`${file}.1`, 'utf8')).toBe('x'.repeat(150) + '\n');
    expect(statSync(file).size).toBe(0);

    writeSync(fd, 'after\n');
    closeSync(fd);
    // No hole of 151 bytes before the line: the write went to the end of the emptied file.
    expect(readFileSync(file, 'utf8')).toBe('after\n');
  });

  it('moves the older copies up one and drops the one past the last piece', () => {
    const file = path.join(dir, 'order-matching.log');
    for (const round of ['first', 'second', 'third', 'fourth']) {
      writeFileSync(file, `${round} `.repeat(30), { flag: 'a' });
      expect(trimLogs([file], { pieceBytes: 100, pieces: 3 })).toHaveLength(1);
    }
    expect(readFileSync(`${file}.1`, 'utf8')).toBe('fourth '.repeat(30));
    expect(readFileSync(`${file}.2`, 'utf8')).toBe('third '.repeat(30));
    expect(readFileSync(`${file}.3`, 'utf8')).toBe('second '.repeat(30));
    expect(existsSync(`${file}.4`)).toBe(false);
  });

  it('leaves files within a piece and files not written yet alone', () => {
    const small = path.join(dir, 'catalog.log');
    const big = path.join(dir, 'market-data.log');
    writeFileSync(small, 'ok\n');
    writeFileSync(big, 'big '.repeat(30));
    expect(trimLogs([small, big, path.join(dir, 'missing.log')], { pieceBytes: 100, pieces: 1 }).map((t) => t.file)).toEqual([big]);
    expect(readFileSync(`${big}.1`, 'utf8')).toBe('big '.repeat(30));
    expect(readFileSync(small, 'utf8')).toBe('ok\n');
    expect(existsSync(`${small}.1`)).toBe(false);
  });
});

describe('logLimits', () => {
  it('cuts a log into 16 MB pieces whose copies hold about the limit, or one piece of a smaller limit', () => {
    const mb = 1024 * 1024;
    expect(logLimits(256 * mb)).toEqual({ pieceBytes: LOG_PIECE_BYTES, pieces: 16 });
    expect(logLimits(100 * mb)).toEqual({ pieceBytes: 16 * mb, pieces: 7 });
    expect(logLimits(5 * mb)).toEqual({ pieceBytes: 5 * mb, pieces: 1 });
  });
});
