import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';

// Offline setup (ENVIRONMENT.md): the WebAssembly schema engine through the pg driver adapter.
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join(__dirname, 'prisma', 'schema.prisma'),
  adapter: async () => new PrismaPg({ connectionString: process.env.DATABASE_URL }),
});
