import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../../src/app/app.module';
import { BaselineService, formatBaselineTable, runBaseline } from '../../src/baseline';
import { ConfigError, loadConfig } from '../../src/config/app-config';
import { migrateIfPending } from '../../src/database/migrate';
import { TaskCatalog } from '../../src/tasks/task-catalog.service';
import { PUBLIC_TENANT } from '../../src/tenants/tenant.constants';
import { remoteEnvironment } from './remote-environment';

/**
 * `npm run baseline`: runs the heuristic policy on every task and prints the table. By default it uses a
 * throw-away database, so runs never mix with served episodes and print the same table every time;
 * `--database-url file:...` keeps the episodes in a database of your choice (migrated first), and
 * `--url http://host:port` runs the same loop against a running server through the generated client
 * (SUPPORTDESK_API_KEY for its key).
 */
async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const urlFlag = args.indexOf('--url');
  if (urlFlag !== -1) {
    const url = args[urlFlag + 1];
    if (!url) throw new ConfigError(['--url needs the server address, e.g. http://localhost:7860']);
    const remote = await remoteEnvironment(url, process.env.SUPPORTDESK_API_KEY);
    const report = await runBaseline(remote.environment, remote.taskIds, remote.limits);
    console.log(formatBaselineTable(report, remote.difficulties));
    return;
  }
  const flag = args.indexOf('--database-url');
  const scratch = flag === -1 ? mkdtempSync(join(tmpdir(), 'supportdesk-baseline-')) : null;
  const databaseUrl = scratch ? `file:${join(scratch, 'baseline.db')}` : args[flag + 1];
  if (!databaseUrl) throw new ConfigError(['--database-url needs a value such as file:./data/baseline.db']);
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  // Like the server's start: nothing pending takes no lock, so this runs beside a server using the same file.
  await migrateIfPending(config.databaseUrl, config.sqliteBusyTimeoutMs + 30_000, (note) => console.error(note));
  // The module without HTTP: the baseline runs through the same service POST /baseline uses.
  const app = await NestFactory.createApplicationContext(AppModule.register(config), { logger: false });
  try {
    const report = await app.get(BaselineService).run({ tenantId: PUBLIC_TENANT.id, keyId: null, seesWholeTenant: true });
    const difficulties = Object.fromEntries(app.get(TaskCatalog).list().map((e) => [e.task.id, e.task.difficulty]));
    console.log(formatBaselineTable(report, difficulties));
  } finally {
    await app.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
