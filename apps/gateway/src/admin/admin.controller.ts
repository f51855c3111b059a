import { Body, Controller, Get, HttpCode, Param, Patch, Post, Query, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ApiError } from '../http/api-error';
import { Forwarder } from '../http/forwarder.service';
import type { QueryParam } from '../http/query-string';
import { AdminTokenGuard } from './admin-token.guard';

/** The operator API: catalog writes and imports. */
@Controller('admin')
@UseGuards(AdminTokenGuard)
export class AdminController {
  constructor(private readonly forward: Forwarder) {}

  @Post('events')
  @HttpCode(201)
  createEvent(@Body() body: unknown) {
    return this.forward.send('catalog.admin.events.create.v1', { body });
  }

  @Patch('events/:id')
  patchEvent(@Param('id') id: string, @Body() body: unknown) {
    return this.forward.send('catalog.admin.events.patch.v1', { id, body });
  }

  @Patch('markets/:id')
  patchMarket(@Param('id') id: string, @Body() body: unknown) {
    return this.forward.send('catalog.admin.markets.patch.v1', { id, body });
  }

  /**
   * Body: the upstream events array itself (sites in `?sites=a,b`), or `{ events, sites }`. 201 with the
   * report when the import finished while the request waited, otherwise 202 with its progress and a
   * `Location` to read it from (docs/catalog.md, "Import").
   */
  @Post('import')
  async import(@Body() body: unknown, @Query('sites') sites: QueryParam, @Res({ passthrough: true }) reply: FastifyReply) {
    // A repeated parameter arrives as an array; refused as every repeated parameter is (the list is the comma list).
    if (Array.isArray(body) && Array.isArray(sites)) throw ApiError.of('invalid_request', 'sites must be a single comma list (?sites=a,b)');
    const request = Array.isArray(body) ? { events: body, sites: typeof sites === 'string' && sites ? sites.split(',') : [] } : body;
    const report = await this.forward.send('catalog.admin.import.v1', request);
    if (report.status === 'running') void reply.status(202).header('location', `/admin/imports/${report.id}`);
    return report;
  }

  @Get('imports/:id')
  getImport(@Param('id') id: string) {
    return this.forward.send('catalog.admin.imports.get.v1', { id });
  }

  @Post('sites')
  @HttpCode(201)
  createSite(@Body() body: unknown) {
    return this.forward.send('catalog.admin.sites.create.v1', body);
  }

  @Get('sites')
  listSites() {
    return this.forward.send('catalog.admin.sites.list.v1', {});
  }
}
