import { PrismaBetterSQLite3 } from '@prisma/adapter-better-sqlite3';
import { defineConfig } from 'prisma/config';
import { prepareDatabaseFile, resolveDatabaseUrl } from './src/config/database-url';

// `engine: "js"` plus the adapter lets `prisma migrate deploy` run with no engine download.
export default defineConfig({
  experimental: { adapter: true },
  schema: 'prisma/schema.prisma',
  engine: 'js',
  async adapter() {
    const url = resolveDatabaseUrl(process.env.DATABASE_URL);
    prepareDatabaseFile(url);
    return new PrismaBetterSQLite3({ url });
  },
});
