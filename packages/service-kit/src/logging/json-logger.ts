import type { LoggerService, LogLevel } from '@nestjs/common';
import { batchedStdout } from './batched-stdout';
import { currentRequestId } from './request-context';
import { ignoreStdioErrors } from './stdio-errors';

// Once per process, with the sink every logger shares.
ignoreStdioErrors();
/** One batched stdout for every logger of the process; it says the lines it had to drop as a warning. */
const stdoutLines = batchedStdout((message) => JSON.stringify({ time: new Date().toISOString(), level: 'warn', context: 'JsonLogger', msg: message }));

const LEVELS = ['debug', 'info', 'warn', 'error'] as const;
type Level = (typeof LEVELS)[number];

/** One JSON object per line, with the service name and the current request id. */
export class JsonLogger implements LoggerService {
  private readonly threshold: number;

  constructor(
    private readonly service: string,
    level: Level = 'info',
    private readonly sink: (line: string) => void = stdoutLines,
  ) {
    this.threshold = LEVELS.indexOf(level);
  }

  log(message: unknown, ...rest: unknown[]): void {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]): void {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]): void {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]): void {
    this.write('debug', message, rest);
  }
  setLogLevels(_levels: LogLevel[]): void {
    // The level is fixed by configuration at boot.
  }

  private write(level: Level, message: unknown, rest: unknown[]): void {
    if (LEVELS.indexOf(level) < this.threshold) return;
    // Nest passes the logging class name as the last argument.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const line: Record<string, unknown> = {
      time: new Date().toISOString(),
      level,
      service: this.service,
      requestId: currentRequestId(),
      context,
      msg: message instanceof Error ? message.message : message,
    };
    const detail = rest.find((r) => r !== undefined);
    if (detail !== undefined) line.detail = detail instanceof Error ? detail.stack : detail;
    if (message instanceof Error) line.stack = message.stack;
    this.sink(JSON.stringify(line));
  }
}
