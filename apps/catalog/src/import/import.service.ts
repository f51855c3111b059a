import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import { fail, ok, storableText, type ImportReport, type ImportRequest, type Reply } from '@exchange/contracts';
import { errorMessage } from '@exchange/service-kit';
import { EventWriter } from '../admin/event-writer';
import { CATALOG_ENV, type CatalogEnv } from '../config';
import { CatalogOutbox } from '../outbox/catalog-outbox';
import { PrismaService } from '../prisma/prisma.service';
import { inTransaction } from '../prisma/transaction';
import { ImportJobRepository } from './import-job.repository';
import { mapUpstreamEvent } from './upstream-event-mapper';

/** How often a running import writes its progress (and shows that it still runs). */
const PROGRESS_EVERY_MS = 1_000;

interface RunningImport {
  report: ImportReport;
  finished: Promise<void>;
  stop: boolean;
}

/**
 * Imports upstream catalog events one transaction each, so that one bad event does not stop the rest.
 * An event whose slug exists already is skipped: importing the same file twice changes nothing. An
 * import runs in the background and keeps its progress in `imports`; the request that starts it waits
 * `IMPORT_WAIT_MS` for it, so that a small one is answered with its report and a large one with its id
 * (docs/catalog.md, "Import": an import of a few hundred events takes minutes under load, and the
 * gateway answered 503 after its 5 s while the import went on and its report was lost).
 */
@Injectable()
export class ImportService implements BeforeApplicationShutdown {
  private readonly logger = new Logger(ImportService.name);
  private readonly running = new Map<string, RunningImport>();
  /** Set when the catalog stops: imports that arrive then are refused, not started into a closing database. */
  private stopping = false;

  constructor(
    private readonly prisma: PrismaService,
    private readonly writer: EventWriter,
    private readonly outbox: CatalogOutbox,
    private readonly jobs: ImportJobRepository,
    @Inject(CATALOG_ENV) private readonly env: Pick<CatalogEnv, 'IMPORT_WAIT_MS'>,
  ) {}

  /** Starts an import and answers its report once done, or as it stands after `IMPORT_WAIT_MS`. */
  async import(request: ImportRequest): Promise<Reply<ImportReport>> {
    if (this.stopping) return fail('service_unavailable', 'the catalog is stopping: nothing was imported; send the import again', 1);
    const job = await this.start(request);
    await Promise.race([job.finished, sleep(this.env.IMPORT_WAIT_MS)]);
    return ok(structuredClone(job.report));
  }

  /** Runs an import to its end (the command-line import). */
  async importAll(request: ImportRequest): Promise<ImportReport> {
    const job = await this.start(request);
    await job.finished;
    return job.report;
  }

  async get(id: string): Promise<Reply<ImportReport>> {
    const mine = this.running.get(id);
    if (mine) return ok(structuredClone(mine.report));
    const stored = await this.jobs.get(id);
    return stored ? ok(stored) : fail('import_not_found', `no import ${id}`);
  }

  /** Imports in progress stop after their current event, marked interrupted (before Prisma disconnects). */
  async beforeApplicationShutdown(): Promise<void> {
    this.stopping = true;
    for (const job of this.running.values()) job.stop = true;
    await Promise.all([...this.running.values()].map((job) => job.finished));
  }

  private async start(request: ImportRequest): Promise<RunningImport> {
    const report: ImportReport = {
      id: randomUUID(),
      status: 'running',
      total: request.events.length,
      created: [],
      skipped: [],
      startedAt: new Date().toISOString(),
      finishedAt: null,
    };
    await this.jobs.save(report);
    // A stop that came while the row was written ends it before its first event.
    const job: RunningImport = { report, stop: this.stopping, finished: Promise.resolve() };
    this.running.set(report.id, job);
    job.finished = this.run(job, request).finally(() => this.running.delete(report.id));
    return job;
  }

  private async run(job: RunningImport, request: ImportRequest): Promise<void> {
    const { report } = job;
    let saving = Promise.resolve();
    const save = () => (saving = saving.then(() => this.jobs.save(report)).catch((error: unknown) => this.logger.warn(`import ${report.id}: progress not saved: ${String(error)}`)));
    const progress = setInterval(save, PROGRESS_EVERY_MS);
    // Skips quote the input, which may hold text the report's row cannot (docs/catalog.md, "Import").
    const skip = (slug: string, reason: string) => report.skipped.push({ slug: storableText(slug), reason: storableText(reason) });
    try {
      for (const raw of request.events) {
        if (job.stop) throw new Error('the catalog was stopped during the import');
        const slug = typeof raw.slug === 'string' ? raw.slug : '(no slug)';
        const mapped = mapUpstreamEvent(raw, request.sites);
        if ('skip' in mapped) {
          skip(slug, mapped.skip);
          continue;
        }
        const created = await inTransaction(this.prisma, (tx) => this.writer.create(tx, mapped.event));
        if (created.ok) report.created.push({ eventId: String(created.data), slug, markets: mapped.event.markets.length });
        else skip(slug, created.body.error);
      }
      report.status = 'done';
    } catch (error) {
      report.status = 'interrupted';
      report.error = storableText(errorMessage(error));
      this.logger.warn(`import ${report.id} interrupted after ${report.created.length + report.skipped.length} of ${report.total} events: ${report.error}`);
    } finally {
      clearInterval(progress);
      report.finishedAt = new Date().toISOString();
      await save();
      await this.outbox.flush().catch((error: unknown) => this.logger.warn(`import ${report.id}: outbox not flushed: ${String(error)}`));
    }
  }
}
