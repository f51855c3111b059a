import { spawn, type ChildProcess, type StdioOptions } from 'node:child_process';
import { backoffMs } from '../retry/backoff';

export interface SupervisedApp {
  name: string;
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  /** The child's stdin, stdout and stderr, as for `child_process.spawn`. */
  stdio: StdioOptions;
}

export interface SupervisorOptions {
  /** Pause before the first restart of an app; doubled at each further one, up to `maxRestartMs`. */
  firstRestartMs?: number;
  maxRestartMs?: number;
  /** An app that ran this long before exiting is restarted after `firstRestartMs` again. */
  stableAfterMs?: number;
  /** How long `stop` waits after SIGTERM before SIGKILL. */
  stopTimeoutMs?: number;
  /** Each start of an app's process (the first and every restart), e.g. to record its pid. */
  onStart?: (app: SupervisedApp, child: ChildProcess) => void;
  /** A line for the operator: an exit and the restart it leads to. */
  onEvent?: (app: SupervisedApp, line: string) => void;
}

interface Running {
  app: SupervisedApp;
  child: ChildProcess;
  startedAt: number;
  /** Restarts in a row without a stable run in between. */
  attempt: number;
  restartTimer?: NodeJS.Timeout;
}

/**
 * Keeps apps running as `restart: unless-stopped` does in docker-compose: an app whose process exits,
 * for whatever reason, is started again after a pause that doubles while it keeps failing. order-matching
 * exits on purpose when a journal write fails (its memory would be ahead of the database) and counts on
 * this to come back from the database (docs/architecture.md, "Running it locally").
 */
export class Supervisor {
  private readonly running = new Map<string, Running>();
  private stopping = false;
  private readonly firstRestartMs: number;
  private readonly maxRestartMs: number;
  private readonly stableAfterMs: number;
  private readonly stopTimeoutMs: number;

  constructor(private readonly options: SupervisorOptions = {}) {
    this.firstRestartMs = options.firstRestartMs ?? 1_000;
    this.maxRestartMs = options.maxRestartMs ?? 30_000;
    this.stableAfterMs = options.stableAfterMs ?? 60_000;
    this.stopTimeoutMs = options.stopTimeoutMs ?? 15_000;
  }

  /** Starts an app and keeps it running until `stop`. */
  start(app: SupervisedApp): ChildProcess {
    if (this.stopping) throw new Error('the supervisor is stopping');
    if (this.running.has(app.name)) throw new Error(`${app.name} is already supervised`);
    const entry: Running = { app, child: this.launch(app), startedAt: Date.now(), attempt: 0 };
    this.running.set(app.name, entry);
    this.watch(entry);
    return entry.child;
  }

  /** The app's current process. */
  child(name: string): ChildProcess | undefined {
    return this.running.get(name)?.child;
  }

  /** Ends every app (SIGTERM, SIGKILL after `stopTimeoutMs`), in the reverse order of their starts, and restarts none. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const entry of [...this.running.values()].reverse()) {
      clearTimeout(entry.restartTimer);
      await this.end(entry.child);
    }
  }

  private launch(app: SupervisedApp): ChildProcess {
    const child = spawn(app.command, app.args, { cwd: app.cwd, env: app.env, stdio: app.stdio });
    // A process that cannot be spawned at all emits no 'exit': said once, not retried.
    child.once('error', (error) => this.options.onEvent?.(app, `${app.name} could not be started: ${error.message}`));
    this.options.onStart?.(app, child);
    return child;
  }

  private watch(entry: Running): void {
    entry.child.once('exit', (code, signal) => {
      if (this.stopping) return;
      const ranMs = Date.now() - entry.startedAt;
      if (ranMs >= this.stableAfterMs) entry.attempt = 0;
      const pauseMs = backoffMs(entry.attempt, this.firstRestartMs, this.maxRestartMs);
      entry.attempt++;
      const how = signal ? `was killed by ${signal}` : `exited with code ${code}`;
      this.options.onEvent?.(entry.app, `${entry.app.name} ${how} after ${(ranMs / 1_000).toFixed(1)} s; restarting in ${pauseMs} ms`);
      entry.restartTimer = setTimeout(() => {
        if (this.stopping) return;
        entry.child = this.launch(entry.app);
        entry.startedAt = Date.now();
        this.watch(entry);
      }, pauseMs);
    });
  }

  private async end(child: ChildProcess): Promise<void> {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), this.stopTimeoutMs);
    await exited;
    clearTimeout(timer);
  }
}
