import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

export interface AppProcess {
  name: string;
  child: ChildProcess;
  /** Everything the process wrote, for failure messages. */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** Runs a built app (apps/<name>/dist/main.js) as a real process with the given environment. */
export function spawnApp(repoRoot: string, name: string, env: Record<string, string>): AppProcess {
  const cwd = path.join(repoRoot, 'apps', name);
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  return {
    name,
    child,
    output: () => output,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
  };
}

/** Polls a health URL until it answers 2xx; fails early if the process died. */
export async function waitHealthy(url: string, app: AppProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (app.child.exitCode !== null) throw new Error(`${app.name} exited:\n${app.output()}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${app.name} not healthy after ${timeoutMs} ms:\n${app.output()}`);
}
