import 'reflect-metadata';
import { bootstrapService } from '@exchange/service-kit';
import { loadMatchingEnv } from './config';
import { MatchingModule } from './matching.module';

async function main(): Promise<void> {
  const env = loadMatchingEnv();
  // A failed journal write leaves memory ahead of the database, a lost feed delivers nothing more: start
  // over from the database (what failed was logged first).
  const onFatal = (error: unknown) => {
    process.stderr.write(`order-matching: exiting to start over: ${String(error)}\n`);
    process.exit(70);
  };
  await bootstrapService({ name: 'order-matching', module: MatchingModule.forRoot(env, onFatal), env, healthPort: env.HEALTH_PORT });
}

main().catch((error) => {
  process.stderr.write(`order-matching failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
