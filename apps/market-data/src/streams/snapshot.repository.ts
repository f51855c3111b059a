import { Injectable, Logger } from '@nestjs/common';
import { errorMessage, TableVacuum } from '@exchange/service-kit';
import { PrismaService } from '../prisma/prisma.service';

/**
 * Saved snapshots after which `stream_snapshots` is vacuumed: each save leaves its old row and its TOAST
 * chunks dead (about 330 bytes a market), which autovacuum, off on these machines, would otherwise never
 * reclaim (a soak probe: the one-row table grew 2.6 MB an hour).
 */
export const SNAPSHOTS_VACUUM_AFTER_SAVES = 10;

/** Snapshots of in-memory read models at a stream position. */
@Injectable()
export class SnapshotRepository {
  private readonly logger = new Logger(SnapshotRepository.name);
  private readonly vacuum: TableVacuum;

  constructor(private readonly prisma: PrismaService) {
    this.vacuum = new TableVacuum(prisma.pool, 'stream_snapshots', SNAPSHOTS_VACUUM_AFTER_SAVES);
  }

  async load<T>(name: string): Promise<{ streamSeq: number; state: T; takenAtMs?: number } | undefined> {
    const row = await this.prisma.streamSnapshot.findUnique({ where: { name } });
    return row ? { streamSeq: Number(row.streamSeq), state: row.state as T, takenAtMs: row.takenAt?.getTime() } : undefined;
  }

  /** Keeps the most advanced snapshot: replicas save the same state at the same position. */
  async save<T>(name: string, streamSeq: number, state: T): Promise<void> {
    const json = JSON.stringify(state);
    const saved = await this.prisma.$executeRaw`
      INSERT INTO stream_snapshots (name, stream_seq, state, taken_at) VALUES (${name}, ${streamSeq}::bigint, ${json}::jsonb, now())
      ON CONFLICT (name) DO UPDATE SET stream_seq = EXCLUDED.stream_seq, state = EXCLUDED.state, taken_at = now()
      WHERE stream_snapshots.stream_seq < EXCLUDED.stream_seq`;
    await this.vacuum.note(saved).catch((error: unknown) => this.logger.warn(`stream_snapshots could not be vacuumed: ${errorMessage(error)}`));
  }

  async remove(name: string): Promise<void> {
    await this.prisma.streamSnapshot.deleteMany({ where: { name } });
  }
}
