import type { Logger } from '@nestjs/common';
import { errorMessage } from '../logging/error-message';
import { backoff } from '../retry/backoff';
import { isDatabaseUnavailable } from './unavailable';

/**
 * Runs `work` again while it fails because the database is unavailable (`isDatabaseUnavailable`),
 * 250 ms after the first failure, doubling to 2 s; any other failure is thrown at once. For start-up
 * work: a service that exited instead waited out its supervisor's growing restart delays, and
 * order-matching came back 15-22 s after PostgreSQL rather than as soon as it could (found by a chaos
 * probe). Says once that it waits, and when the database is back.
 */
export async function untilDatabaseAvailable<T>(logger: Pick<Logger, 'warn' | 'log'>, what: string, work: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      const result = await work();
      if (attempt > 0) logger.log(`${what}: the database is back`);
      return result;
    } catch (error) {
      if (!isDatabaseUnavailable(error)) throw error;
      if (attempt === 0) logger.warn(`${what}: the database is unavailable (${errorMessage(error)}); waiting for it`);
      await backoff(attempt, 250, 2_000);
    }
  }
}
