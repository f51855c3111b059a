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

/**
 * Runs a unit of work in one transaction: a coded rejection rolls everything back, and a unique-key
 * race with a concurrent writer becomes a 409 instead of a 500.
 */
export async function inTransaction<T>(
  prisma: PrismaService,
  work: (tx: Prisma.TransactionClient) => Promise<Reply<T>>,
): Promise<Reply<T>> {
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
    if (isUniqueViolation(error)) return fail('conflict', 'a concurrent change took one of these slugs; retry');
    throw error;
  }
}
