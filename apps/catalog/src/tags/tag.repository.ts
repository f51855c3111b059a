import { Injectable } from '@nestjs/common';
import type { Prisma } from '../generated/prisma/client';
import { escapeLike } from '../prisma/like';
import { PrismaService } from '../prisma/prisma.service';

@Injectable()
export class TagRepository {
  constructor(private readonly prisma: PrismaService) {}

  list(page: { limit: number; offset: number; order?: keyof Prisma.TagOrderByWithRelationInput; ascending: boolean }) {
    const direction = page.ascending ? 'asc' : 'desc';
    return this.prisma.tag.findMany({
      orderBy: [{ [page.order ?? 'id']: direction }, { id: 'asc' }],
      take: page.limit,
      skip: page.offset,
    });
  }

  /** Tags whose label or slug contains the text, with how many events carry each. */
  search(text: string, take: number, skip: number) {
    const like = escapeLike(text);
    return this.prisma.tag.findMany({
      where: { OR: [{ label: { contains: like, mode: 'insensitive' } }, { slug: { contains: like, mode: 'insensitive' } }] },
      include: { _count: { select: { events: true } } },
      orderBy: { id: 'asc' },
      take,
      skip,
    });
  }
}
