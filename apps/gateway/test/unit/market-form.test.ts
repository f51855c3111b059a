import { controllersOf } from '../../src/gateway.module';
import { marketForm } from '../../src/catalog/markets.controller';
import { requestIdOf } from '../../src/http/fastify-setup';
import { AdminController } from '../../src/admin/admin.controller';
import { EventsController } from '../../src/catalog/events.controller';

const conditionId = `0x${'1f'.repeat(32)}`;

describe('the /markets/{id} rule', () => {
  it.each([
    ['catalog', '12', 'catalog'],
    ['catalog', conditionId, 'catalog'],
    ['clob', conditionId, 'clob'],
    ['clob', '12', 'clob'],
    ['combined', '12', 'catalog'],
    ['combined', conditionId, 'clob'],
  ] as const)('on the %s port, id %s gets the %s form', (surface, id, form) => {
    expect(marketForm(surface, id)).toBe(form);
  });
});

describe('surfaces', () => {
  it('serves catalog routes on the catalog and combined ports only', () => {
    expect(controllersOf('catalog')).toEqual(expect.arrayContaining([EventsController, AdminController]));
    expect(controllersOf('combined')).toEqual(expect.arrayContaining([EventsController, AdminController]));
    expect(controllersOf('clob')).not.toContain(EventsController);
    expect(controllersOf('data')).not.toContain(EventsController);
  });

  it('lists each controller once on the combined port', () => {
    const list = controllersOf('combined');
    expect(new Set(list).size).toBe(list.length);
  });
});

describe('request ids', () => {
  it('keeps a sane caller id and replaces anything else', () => {
    expect(requestIdOf('abc-123')).toBe('abc-123');
    expect(requestIdOf('bad id with spaces')).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(undefined)).toMatch(/^[0-9a-f-]{36}$/);
    expect(requestIdOf(['a', 'b'])).toMatch(/^[0-9a-f-]{36}$/);
  });
});
