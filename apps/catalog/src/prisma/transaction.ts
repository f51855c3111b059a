import { fail, type Failure, type Reply } from '@exchange/contracts';
import type { Prisma } from '../generated/prisma/client';
import type { PrismaService } from './prisma.service';

class Rollback extends Error {
  constructor(readonly failure: Failure) {
    super(failure.body.error);
  }
}

/** Prisma's error for a unique key a concurrent writer took between a check and the write. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'P2002';
}

/** Attempts of a unit of work that lost a unique-key race, before it answers 409. */
const ATTEMPTS = 4;

/**
 * Runs a unit of work in one transaction: a coded rejection rolls everything back. A unique-key race with
 * a concurrent writer (two events bringing the same new tag or series, checked absent by both) runs the
 * work again, which then finds what the other one wrote; only if it keeps losing is it a 409, never a
 * 500. A real clash (the same event slug) is answered by the work's own check on the next attempt.
 */
export async function inTransaction<T>(
  prisma: PrismaService,
  work: (tx: Prisma.TransactionClient) => Promise<Reply<T>>,
): Promise<Reply<T>> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await prisma.$transaction(
        async (tx) => {
          const reply = await work(tx);
          if (!reply.ok) throw new Rollback(reply);
          return reply;
        },
        { timeout: 60_000, maxWait: 10_000 },
      );
    } catch (error) {
      if (error instanceof Rollback) return error.failure;
      if (!isUniqueViolation(error)) throw error;
      if (attempt === ATTEMPTS) return fail('conflict', 'a concurrent change took one of these slugs; retry');
    }
  }
}
