import { Controller, Get, Inject, Param, Query } from '@nestjs/common';
import { CONDITION_ID_PATTERN } from '@exchange/contracts';
import { Forwarder } from '../http/forwarder.service';
import type { QueryParam } from '../http/query-string';
import { SURFACE, type Surface } from '../surfaces';

/**
 * GET /markets/{id} has two shapes. The catalog port answers the catalog form, the CLOB port the CLOB
 * form; on the combined port an all-digits id gets the catalog form and a 0x condition id the CLOB form.
 */
export function marketForm(surface: Surface, id: string): 'catalog' | 'clob' {
  if (surface === 'catalog') return 'catalog';
  if (surface === 'clob') return 'clob';
  return CONDITION_ID_PATTERN.test(id) ? 'clob' : 'catalog';
}

@Controller('markets')
export class MarketsController {
  constructor(
    private readonly forward: Forwarder,
    @Inject(SURFACE) private readonly surface: Surface,
  ) {}

  @Get(':id')
  get(@Param('id') id: string, @Query('creator') creator: QueryParam) {
    return marketForm(this.surface, id) === 'catalog'
      ? this.forward.send('catalog.markets.get.v1', { id, creator })
      : this.forward.send('marketdata.markets.get.v1', { condition_id: id });
  }
}
