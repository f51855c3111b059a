import { spawn, type ChildProcess } from 'node:child_process';

/** A server process a test runs itself, to stop and start again (the machine's servers are shared). */
export interface ServerProcess {
  /** Starts the server and waits until `ready` says it serves. */
  start(): Promise<void>;
  /** Stops it (SIGTERM, after a SIGCONT in case it is frozen) and waits for it to exit. */
  stop(): Promise<void>;
  /** Sends a signal to the running server, if any. */
  signal(signal: NodeJS.Signals): void;
}

export function serverProcess(command: string, args: string[], ready: () => Promise<void>): ServerProcess {
  let server: ChildProcess | undefined;
  return {
    async start() {
      server = spawn(command, args, { stdio: 'ignore' });
      await ready();
    },
    async stop() {
      const running = server;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      // A frozen server would never act on the SIGTERM.
      running.kill('SIGCONT');
      running.kill('SIGTERM');
      await exited;
    },
    signal(signal) {
      server?.kill(signal);
    },
  };
}
