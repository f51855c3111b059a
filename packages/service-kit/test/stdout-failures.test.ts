import { spawn, type StdioOptions } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * The built logger in a child process of its own: an 'error' event without a listener ends a real
 * process, which a test inside jest's process would not show.
 */
const LOGGER = JSON.stringify(path.join(__dirname, '../dist/logging/json-logger.js'));

/**
 * Logs three lines in two writes to a stdout on /dev/full (every write fails with ENOSPC, as on a full
 * disk), then reopens fd 1 on the file argv[1], which takes writes again as a disk with room does.
 */
const FULL_THEN_ROOM = `
const fs = require('node:fs');
const { JsonLogger } = require(${LOGGER});
const logger = new JsonLogger('probe');
const pause = () => new Promise((resolve) => setTimeout(resolve, 20));
(async () => {
  logger.log('lost 1');
  logger.log('lost 2');
  await pause();
  logger.log('lost 3');
  await pause();
  fs.closeSync(1);
  if (fs.openSync(process.argv[1], 'a') !== 1) throw new Error('the file did not become fd 1');
  logger.log('written');
  await pause();
})();
`;

/** Logs a line every 10 ms for 500 ms, then writes the CPU time that took to stderr. */
const LOGGING_HALF_A_SECOND = `
const { JsonLogger } = require(${LOGGER});
const logger = new JsonLogger('probe');
const start = process.cpuUsage();
const timer = setInterval(() => logger.log('a line no one reads'), 10);
setTimeout(() => {
  clearInterval(timer);
  const { user, system } = process.cpuUsage(start);
  process.stderr.write('cpu ms ' + (user + system) / 1000 + '\\n');
}, 500);
`;

/** Runs a child script with `stdout` as its stdout (a pipe whose reader is gone if `readerGone`); answers its exit code and stderr. */
function run(script: string, stdout: number | 'pipe', { arg = '', readerGone = false } = {}) {
  const stdio: StdioOptions = ['ignore', stdout, 'pipe'];
  const proc = spawn(process.execPath, ['-e', script, arg], { stdio });
  if (readerGone) proc.stdout!.destroy();
  let stderr = '';
  proc.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise<{ code: number | null; stderr: string }>((resolve) => proc.on('close', (code) => resolve({ code, stderr })));
}

describe('a logging process whose stdout fails', () => {
  let dir: string;
  beforeAll(() => (dir = mkdtempSync(path.join(tmpdir(), 'stdout-failures-'))));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps running on a full disk, and once stdout takes writes again says how many lines it dropped and why', async () => {
    const full = openSync('/dev/full', 'w');
    const file = path.join(dir, 'room-again.log');
    const { code, stderr } = await run(FULL_THEN_ROOM, full, { arg: file });
    closeSync(full);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { level: string; msg: string });
    expect(lines).toEqual([
      expect.objectContaining({ level: 'info', msg: 'written' }),
      expect.objectContaining({ level: 'warn', msg: '3 log lines dropped: ENOSPC: no space left on device, write' }),
    ]);
  });

  it('keeps running, without spinning on the failed writes, once the reader of its piped stdout is gone', async () => {
    const { code, stderr } = await run(LOGGING_HALF_A_SECOND, 'pipe', { readerGone: true });
    expect(code).toBe(0);
    const cpuMs = Number(/cpu ms ([\d.]+)/.exec(stderr)?.[1]);
    // Fifty failed writes take a few milliseconds; a loop on the failure would take the whole 500.
    expect(cpuMs).toBeLessThan(150);
  });
});
