import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

// The CLI needs the datasource variable even for `generate` (or it tries to download an engine);
// the default is the local database the app itself defaults to.
process.env.DATABASE_URL ??= 'postgresql://postgres@127.0.0.1:5432/exchange_gateway';

// Offline setup (ENVIRONMENT.md): the WebAssembly schema engine through the pg driver adapter.
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join(__dirname, 'prisma', 'schema.prisma'),
  // Short idle timeout: the CLI exits when done instead of waiting 10 s for idle connections to close.
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL, idleTimeoutMillis: 50 }),
});
