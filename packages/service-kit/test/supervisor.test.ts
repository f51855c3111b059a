import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eventually, sleep } from '@exchange/testing';
import { Supervisor, type SupervisedApp } from '../src/supervision/supervisor';

/**
 * Real child processes: a script that appends a line per start to a file, then exits with code 70
 * after `CRASH_AFTER_MS` for its first `CRASHES` starts (counted in the file) and runs on after that,
 * ending on SIGTERM unless told to ignore it.
 */
const CHILD = `
const fs = require('node:fs');
const file = process.env.STARTS_FILE;
// The handler before the start is recorded: a test stops the app once it sees the start.
if (process.env.IGNORE_TERM) process.on('SIGTERM', () => fs.appendFileSync(file + '.term', 'ignored\\n'));
else process.on('SIGTERM', () => { fs.appendFileSync(file + '.term', 'ended\\n'); process.exit(0); });
fs.appendFileSync(file, Date.now() + '\\n');
const starts = fs.readFileSync(file, 'utf8').trim().split('\\n').length;
if (starts <= Number(process.env.CRASHES ?? 0)) setTimeout(() => process.exit(70), Number(process.env.CRASH_AFTER_MS ?? 0));
setInterval(() => undefined, 1000);
`;

describe('Supervisor', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'supervisor-'));
  const script = path.join(dir, 'child.js');
  writeFileSync(script, CHILD);
  let supervisor: Supervisor | undefined;

  afterEach(async () => {
    await supervisor?.stop();
    supervisor = undefined;
  });

  const app = (name: string, env: Record<string, string>): SupervisedApp => ({
    name,
    command: process.execPath,
    args: [script],
    cwd: dir,
    env: { ...process.env, STARTS_FILE: path.join(dir, `${name}.starts`), ...env },
    stdio: 'ignore',
  });
  const starts = (name: string): number[] => {
    try {
      return readFileSync(path.join(dir, `${name}.starts`), 'utf8').trim().split('\n').map(Number);
    } catch {
      return [];
    }
  };

  it('restarts an app that exits, with a pause that doubles while it keeps failing', async () => {
    const events: string[] = [];
    const pids: number[] = [];
    supervisor = new Supervisor({
      firstRestartMs: 200,
      maxRestartMs: 800,
      onStart: (_app, child) => pids.push(child.pid!),
      onEvent: (_app, line) => events.push(line),
    });
    supervisor.start(app('crashy', { CRASHES: '3' }));
    await eventually(() => starts('crashy').length === 4, 'the fourth start of crashy');
    await sleep(300);
    expect(starts('crashy')).toHaveLength(4);
    expect(new Set(pids).size).toBe(4);
    expect(supervisor.child('crashy')!.pid).toBe(pids[3]);
    expect(events).toEqual([
      expect.stringMatching(/^crashy exited with code 70 after \d+\.\d s; restarting in 200 ms$/),
      expect.stringMatching(/restarting in 400 ms$/),
      expect.stringMatching(/restarting in 800 ms$/),
    ]);
    const [a, b, c, d] = starts('crashy');
    expect(b! - a!).toBeGreaterThanOrEqual(200);
    expect(c! - b!).toBeGreaterThanOrEqual(400);
    expect(d! - c!).toBeGreaterThanOrEqual(800);
  });

  it('restarts an app killed by a signal, and pauses from the start again after a stable run', async () => {
    const events: string[] = [];
    // A run counts from its spawn, node's start-up included, to its end: the third run, killed as soon as
    // it is seen, must stay short of "stable" on a loaded machine too (it reached 0.3 s with 300 ms).
    supervisor = new Supervisor({ firstRestartMs: 100, stableAfterMs: 2_000, onEvent: (_app, line) => events.push(line) });
    supervisor.start(app('killed', { CRASHES: '1' }));
    await eventually(() => starts('killed').length === 2, 'the second start of killed');
    await sleep(2_500);
    supervisor.child('killed')!.kill('SIGKILL');
    await eventually(() => starts('killed').length === 3, 'the third start of killed');
    supervisor.child('killed')!.kill('SIGKILL');
    await eventually(() => starts('killed').length === 4, 'the fourth start of killed');
    expect(events).toEqual([
      expect.stringMatching(/^killed exited with code 70 .*restarting in 100 ms$/),
      expect.stringMatching(/^killed was killed by SIGKILL .*restarting in 100 ms$/),
      expect.stringMatching(/^killed was killed by SIGKILL .*restarting in 200 ms$/),
    ]);
  });

  it('stops every app with SIGTERM and restarts none of them', async () => {
    supervisor = new Supervisor({ firstRestartMs: 50 });
    supervisor.start(app('one', {}));
    supervisor.start(app('two', {}));
    await eventually(() => starts('one').length === 1 && starts('two').length === 1, 'one and two started');
    await supervisor.stop();
    expect(supervisor.child('one')!.exitCode).toBe(0);
    expect(supervisor.child('two')!.exitCode).toBe(0);
    await sleep(200);
    expect(starts('one')).toHaveLength(1);
    expect(readFileSync(path.join(dir, 'two.starts.term'), 'utf8')).toBe('ended\n');
    expect(() => supervisor!.start(app('three', {}))).toThrow('stopping');
  });

  it('kills an app that ignores SIGTERM once the stop timeout has passed', async () => {
    supervisor = new Supervisor({ stopTimeoutMs: 300 });
    const child = supervisor.start(app('stubborn', { IGNORE_TERM: '1' }));
    await eventually(() => starts('stubborn').length === 1, 'stubborn started');
    const began = Date.now();
    await supervisor.stop();
    expect(Date.now() - began).toBeGreaterThanOrEqual(280);
    expect(child.signalCode).toBe('SIGKILL');
    expect(readFileSync(path.join(dir, 'stubborn.starts.term'), 'utf8')).toBe('ignored\n');
  });

  it('says once that a command cannot be started', async () => {
    const events: string[] = [];
    supervisor = new Supervisor({ firstRestartMs: 50, onEvent: (_app, line) => events.push(line) });
    supervisor.start({ ...app('missing', {}), command: path.join(dir, 'no-such-binary') });
    await eventually(() => events.length > 0, 'an event about missing');
    await sleep(200);
    expect(events).toEqual([expect.stringMatching(/^missing could not be started: spawn .*ENOENT$/)]);
  });
});
