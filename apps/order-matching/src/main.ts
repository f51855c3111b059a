import 'reflect-metadata';
import { bootstrapService } from '@exchange/service-kit';
import { loadMatchingEnv } from './config';
import { MatchingModule } from './matching.module';

async function main(): Promise<void> {
  const env = loadMatchingEnv();
  // A failed journal write leaves memory ahead of the database: start over from the database.
  const onFatal = (error: unknown) => {
    process.stderr.write(`order-matching: journal write failed, exiting: ${String(error)}\n`);
    process.exit(70);
  };
  await bootstrapService({ name: 'order-matching', module: MatchingModule.forRoot(env, onFatal), env, healthPort: env.HEALTH_PORT });
}

main().catch((error) => {
  process.stderr.write(`order-matching failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
