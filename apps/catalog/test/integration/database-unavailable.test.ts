import { PrismaPg } from '@prisma/adapter-pg';
import { isDatabaseUnavailable } from '@exchange/service-kit';
import { PrismaClient } from '../../src/generated/prisma/client';

/** Prisma's errors for a database that is not there, as the catalog and the gateway meet them in a restart. */
describe('isDatabaseUnavailable, on errors of Prisma with the pg driver adapter', () => {
  const prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: 'postgresql://postgres@127.0.0.1:1/none' }) });
  afterAll(() => prisma.$disconnect());

  it('is true for a model query and a raw query on a server that cannot be reached', async () => {
    const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => error);
    const modelError = await failure(prisma.site.findMany());
    expect(modelError).toMatchObject({ code: 'P1001' });
    expect(isDatabaseUnavailable(modelError)).toBe(true);
    const rawError = await failure(prisma.$queryRaw`SELECT 1`);
    expect(isDatabaseUnavailable(rawError)).toBe(true);
  });
});
