import { Injectable } from '@nestjs/common';
import { CONDITION_ID_PATTERN } from '@exchange/contracts';
import type { Prisma } from '../generated/prisma/client';
import { PrismaService } from '../prisma/prisma.service';
import { visibleMarkets } from '../events/event.repository';

/** A market is addressed by its numeric id or by its condition id (case-insensitive). */
export function marketKey(id: string | number): Prisma.MarketWhereInput {
  if (typeof id === 'number') return { id };
  return CONDITION_ID_PATTERN.test(id) ? { conditionId: id.toLowerCase() } : { id: Number(id) };
}

@Injectable()
export class MarketRepository {
  constructor(private readonly prisma: PrismaService) {}

  findOne(id: string | number, siteId: string | undefined) {
    return this.prisma.market.findFirst({
      where: { AND: [marketKey(id), visibleMarkets(siteId)] },
      include: { event: true },
    });
  }
}
