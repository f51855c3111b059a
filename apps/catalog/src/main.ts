import 'reflect-metadata';
import { bootstrapService } from '@exchange/service-kit';
import { CatalogModule } from './catalog.module';
import { loadCatalogEnv } from './config';

async function main(): Promise<void> {
  const env = loadCatalogEnv();
  // The reason is logged before (a lost feed); the supervisor starts the catalog again.
  const exit = () => process.exit(1);
  await bootstrapService({ name: 'catalog', module: CatalogModule.forRoot(env, exit), env, healthPort: env.HEALTH_PORT });
}

main().catch((error) => {
  process.stderr.write(`catalog failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
