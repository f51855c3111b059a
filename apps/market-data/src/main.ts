import 'reflect-metadata';
import { bootstrapService } from '@exchange/service-kit';
import { loadMarketDataEnv } from './config';
import { MarketDataModule } from './market-data.module';

async function main(): Promise<void> {
  const env = loadMarketDataEnv();
  // The reason is logged before (a lost feed); the supervisor starts market-data again.
  const exit = () => process.exit(1);
  await bootstrapService({ name: 'market-data', module: MarketDataModule.forRoot(env, exit), env, healthPort: env.HEALTH_PORT });
}

main().catch((error) => {
  process.stderr.write(`market-data failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
