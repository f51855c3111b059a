import 'reflect-metadata';
import { readFileSync } from 'node:fs';
import { NestFactory } from '@nestjs/core';
import { describeIssues, importRequest } from '@exchange/contracts';
import { errorMessage, JsonLogger } from '@exchange/service-kit';
import { CatalogModule } from './catalog.module';
import { loadCatalogEnv } from './config';
import { ImportService } from './import/import.service';

const USAGE = 'usage: node dist/import-cli.js <upstream-events.json> [--sites=site-a,0xCreator...]';

/** Imports a file of upstream catalog events straight into the catalog database (no gateway needed). */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const file = args.find((a) => !a.startsWith('--'));
  if (!file) throw new Error(USAGE);
  const sites = args.find((a) => a.startsWith('--sites='))?.slice('--sites='.length).split(',').filter(Boolean) ?? [];
  const content: unknown = JSON.parse(readFileSync(file, 'utf8'));
  const events = Array.isArray(content) ? content : (content as { events?: unknown }).events;
  const request = importRequest.safeParse({ events, sites });
  if (!request.success) throw new Error(`${file}: ${describeIssues(request.error)}`);

  const env = loadCatalogEnv({ ...process.env, DEMO_DATA: 'false' });
  // A lost feed (logged first) ends the import as a failure.
  const app = await NestFactory.createApplicationContext(CatalogModule.forRoot(env, () => process.exit(1)), {
    logger: new JsonLogger('catalog-import', env.LOG_LEVEL),
  });
  try {
    const report = await app.get(ImportService).importAll(request.data);
    process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    // An import cut short (its database lost) is not a success; the report says how far it got.
    if (report.status !== 'done') process.exitCode = 1;
  } finally {
    await app.close();
  }
}

main().catch((error) => {
  process.stderr.write(`${errorMessage(error)}\n`);
  process.exit(1);
});
