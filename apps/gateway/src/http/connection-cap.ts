import { readFileSync } from 'node:fs';
import type { Server, Socket } from 'node:net';

/** The process's soft limit of open files, from Linux's /proc/self/limits; undefined where it cannot be read. */
export function openFilesLimit(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | undefined {
  try {
    const line = read()
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    return soft && /^\d+$/.test(soft) ? Number(soft) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The client connections the gateway takes by default under a limit of `openFiles`: an eighth of it (at
 * least 128) is kept for its own connections (PostgreSQL, Redis, NATS) and files, so that clients never
 * take the descriptors the answers need.
 */
export function defaultConnectionCap(openFiles: number | undefined): number | undefined {
  if (openFiles === undefined) return undefined;
  return Math.max(64, openFiles - Math.max(128, Math.floor(openFiles / 8)));
}

/** Below this many open files a production gateway is likely to run out: said at start. */
export const LOW_OPEN_FILES = 4_096;

/**
 * At most `cap` client connections over every surface together; one more is closed as it arrives. Until
 * the twenty-fifth session a client holding as many connections as the process's descriptor limit
 * allowed (256 in a probe) shut every other client out without a log line, and requests on connections
 * already open failed with 500s, the database's connections being refused (EMFILE).
 */
export class ConnectionCap {
  private open = 0;
  private refused = 0;

  constructor(
    private readonly cap: number,
    private readonly say: { warn(message: string): void; log(message: string): void },
  ) {}

  watch(server: Server): void {
    server.on('connection', (socket: Socket) => this.admit(socket));
  }

  private admit(socket: Socket): void {
    if (this.open >= this.cap) {
      if (this.refused++ === 0) this.say.warn(`refusing client connections: ${this.cap} open, the most the gateway takes (MAX_CLIENT_CONNECTIONS)`);
      socket.destroy();
      return;
    }
    this.open++;
    socket.once('close', () => {
      // A closed connection always leaves room: only one below the cap was taken.
      this.open--;
      if (this.refused > 0) {
        this.say.log(`taking client connections again, after refusing ${this.refused}`);
        this.refused = 0;
      }
    });
  }
}
