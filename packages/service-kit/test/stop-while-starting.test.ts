import { spawn } from 'node:child_process';
import path from 'node:path';
import { TEST_NATS_URL, testPrefix } from '@exchange/testing';

/** The built kit, in a child process: a stop signal is about a real process's life. */
const KIT = JSON.stringify(path.join(__dirname, '../dist/index.js'));

/** A service whose start never ends, as an order-matching waiting for another engine's journal lock. */
const NEVER_STARTS = `
const { Injectable, Module } = require('@nestjs/common');
const { bootstrapService } = require(${KIT});
class WaitsForever {
  onModuleInit() {
    process.stderr.write('starting\\n');
    // Waiting on something, as a lock's retries do: a bare pending promise would let the process end.
    return new Promise(() => setInterval(() => undefined, 60_000));
  }
}
Injectable()(WaitsForever);
class NeverModule {}
Module({ providers: [WaitsForever] })(NeverModule);
void bootstrapService({
  name: 'never-starts',
  module: NeverModule,
  env: { NATS_URL: ${JSON.stringify(TEST_NATS_URL)}, NATS_PREFIX: ${JSON.stringify(testPrefix('stop'))}, RPC_TIMEOUT_MS: 2000, LOG_LEVEL: 'warn' },
  healthPort: 0,
});
`;

describe('a service stopped while it starts', () => {
  it.each(['SIGTERM', 'SIGINT'] as const)('exits at once on %s, saying so, instead of waiting for a start that may never end', async (signal) => {
    const child = spawn(process.execPath, ['-e', NEVER_STARTS], { cwd: path.join(__dirname, '..'), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    const started = new Promise<void>((resolve) =>
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes('starting')) resolve();
      }),
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    await started;
    const signalledAt = Date.now();
    child.kill(signal);
    // Nest's own handler would run the shutdown hooks beside the init, then let the signal end it (no exit code, no line).
    let timer: NodeJS.Timeout | undefined;
    const code = await Promise.race([exited, new Promise<'running'>((resolve) => (timer = setTimeout(() => resolve('running'), 5_000)))]);
    clearTimeout(timer);
    if (code === 'running') child.kill('SIGKILL');
    expect(code).toBe(signal === 'SIGTERM' ? 143 : 130);
    expect(Date.now() - signalledAt).toBeLessThan(2_000);
    expect(stdout).toContain(`${signal} while starting: never-starts exits at once (it has answered no request)`);
  });
});
