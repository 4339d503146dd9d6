import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT as ROOT } from '../common/project-root';

/** Applies the committed migrations to a database file with the real Prisma CLI (`prisma migrate deploy`). */
export function migrateDatabase(databaseUrl: string): void {
  execFileSync(join(ROOT, 'node_modules', '.bin', 'prisma'), ['migrate', 'deploy'], {
    cwd: ROOT,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    stdio: 'pipe',
  });
}
