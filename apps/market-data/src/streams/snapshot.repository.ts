import { Injectable } from '@nestjs/common';
import { PrismaService } from '../prisma/prisma.service';

/** Snapshots of in-memory read models at a stream position. */
@Injectable()
export class SnapshotRepository {
  constructor(private readonly prisma: PrismaService) {}

  async load<T>(name: string): Promise<{ streamSeq: number; state: T; takenAtMs?: number } | undefined> {
    const row = await this.prisma.streamSnapshot.findUnique({ where: { name } });
    return row ? { streamSeq: Number(row.streamSeq), state: row.state as T, takenAtMs: row.takenAt?.getTime() } : undefined;
  }

  /** Keeps the most advanced snapshot: replicas save the same state at the same position. */
  async save<T>(name: string, streamSeq: number, state: T): Promise<void> {
    const json = JSON.stringify(state);
    await this.prisma.$executeRaw`
      INSERT INTO stream_snapshots (name, stream_seq, state, taken_at) VALUES (${name}, ${streamSeq}::bigint, ${json}::jsonb, now())
      ON CONFLICT (name) DO UPDATE SET stream_seq = EXCLUDED.stream_seq, state = EXCLUDED.state, taken_at = now()
      WHERE stream_snapshots.stream_seq < EXCLUDED.stream_seq`;
  }

  async remove(name: string): Promise<void> {
    await this.prisma.streamSnapshot.deleteMany({ where: { name } });
  }
}
