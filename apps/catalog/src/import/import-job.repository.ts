import { Injectable } from '@nestjs/common';
import type { ImportReport } from '@exchange/contracts';
import type { ImportJob } from '../generated/prisma/client';
import { PrismaService } from '../prisma/prisma.service';

/** A running import whose row was not written for this long has no runner any more (it writes every second). */
const RUNNER_GONE_MS = 30_000;

/** The `imports` table: each import's progress while it runs and its report once done. */
@Injectable()
export class ImportJobRepository {
  constructor(private readonly prisma: PrismaService) {}

  async save(report: ImportReport): Promise<void> {
    const row = {
      status: report.status,
      total: report.total,
      created: report.created,
      skipped: report.skipped,
      error: report.error ?? null,
      startedAt: new Date(report.startedAt),
      updatedAt: new Date(),
      finishedAt: report.finishedAt === null ? null : new Date(report.finishedAt),
    };
    await this.prisma.importJob.upsert({ where: { id: report.id }, create: { id: report.id, ...row }, update: row });
  }

  async get(id: string): Promise<ImportReport | null> {
    const row = await this.prisma.importJob.findUnique({ where: { id } });
    return row && reportOf(row, Date.now());
  }
}

function reportOf(row: ImportJob, now: number): ImportReport {
  const report: ImportReport = {
    id: row.id,
    status: row.status as ImportReport['status'],
    total: row.total,
    created: row.created as ImportReport['created'],
    skipped: row.skipped as ImportReport['skipped'],
    startedAt: row.startedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
  if (row.error !== null) report.error = row.error;
  if (report.status === 'running' && now - row.updatedAt.getTime() > RUNNER_GONE_MS) {
    report.status = 'interrupted';
    report.error = 'the catalog process running the import stopped before it finished';
    // Its last sign of life.
    report.finishedAt = row.updatedAt.toISOString();
  }
  return report;
}
