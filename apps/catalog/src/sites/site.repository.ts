import { Injectable } from '@nestjs/common';
import { ADDRESS_PATTERN } from '@exchange/contracts';
import { escapeLike } from '../prisma/like';
import { PrismaService } from '../prisma/prisma.service';

@Injectable()
export class SiteRepository {
  constructor(private readonly prisma: PrismaService) {}

  /** A site by its id or by its creator address. */
  findByCreator(creator: string) {
    return ADDRESS_PATTERN.test(creator)
      ? this.prisma.site.findUnique({ where: { creatorAddress: creator.toLowerCase() } })
      : this.prisma.site.findUnique({ where: { id: creator } });
  }

  list() {
    return this.prisma.site.findMany({ orderBy: { id: 'asc' } });
  }

  search(text: string, take: number, skip: number) {
    const like = escapeLike(text);
    return this.prisma.site.findMany({
      where: {
        OR: [{ id: { contains: like, mode: 'insensitive' } }, { name: { contains: like, mode: 'insensitive' } }],
      },
      orderBy: { id: 'asc' },
      take,
      skip,
    });
  }

  create(site: { id: string; name: string; creatorAddress: string }) {
    return this.prisma.site.create({ data: { ...site, creatorAddress: site.creatorAddress.toLowerCase() } });
  }
}
