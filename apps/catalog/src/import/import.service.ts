import { Injectable } from '@nestjs/common';
import { ok, type ImportReport, type ImportRequest, type Reply } from '@exchange/contracts';
import { EventWriter } from '../admin/event-writer';
import { CatalogOutbox } from '../outbox/catalog-outbox';
import { PrismaService } from '../prisma/prisma.service';
import { inTransaction } from '../prisma/transaction';
import { mapUpstreamEvent } from './upstream-event-mapper';

/**
 * Imports upstream catalog events one transaction each, so that one bad event does not stop the rest.
 * An event whose slug exists already is skipped: importing the same file twice changes nothing.
 */
@Injectable()
export class ImportService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly writer: EventWriter,
    private readonly outbox: CatalogOutbox,
  ) {}

  async import(request: ImportRequest): Promise<Reply<ImportReport>> {
    const report: ImportReport = { created: [], skipped: [] };
    for (const raw of request.events) {
      const slug = typeof raw.slug === 'string' ? raw.slug : '(no slug)';
      const mapped = mapUpstreamEvent(raw, request.sites);
      if ('skip' in mapped) {
        report.skipped.push({ slug, reason: mapped.skip });
        continue;
      }
      const created = await inTransaction(this.prisma, (tx) => this.writer.create(tx, mapped.event));
      if (created.ok) report.created.push({ eventId: String(created.data), slug, markets: mapped.event.markets.length });
      else report.skipped.push({ slug, reason: created.body.error });
    }
    await this.outbox.flush();
    return ok(report);
  }
}
