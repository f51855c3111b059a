import 'reflect-metadata';
import { loadGatewayEnv } from './config';
import { startGateway } from './gateway';

async function main(): Promise<void> {
  const gateway = await startGateway(loadGatewayEnv());
  const stop = () => void gateway.close().finally(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error) => {
  process.stderr.write(`gateway failed to start: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
