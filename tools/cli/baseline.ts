import 'reflect-metadata';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../../src/app/app.module';
import { BaselineService, baselineRunRequest, formatBaselineTable, runBaseline } from '../../src/baseline';
import { RunsService } from '../../src/runs/runs.service';
import { loadConfig } from '../../src/config/app-config';
import { migrateIfPending } from '../../src/database/migrate';
import { TaskCatalog } from '../../src/tasks/task-catalog.service';
import { PUBLIC_TENANT } from '../../src/tenants/tenant.constants';
import { BASELINE_COMMAND } from './baseline.command';
import { readCommandLine } from './command-line';
import { remoteEnvironment } from './remote-environment';

/** `npm run baseline`: see baseline.command.ts, or `npm run baseline -- --help`. */
async function main(): Promise<void> {
  const { values } = readCommandLine(BASELINE_COMMAND);
  if (values.url !== undefined) {
    const remote = await remoteEnvironment(values.url, process.env.SUPPORTDESK_API_KEY, process.env.SUPPORTDESK_READER_KEY || undefined);
    const runId = await remote.createRun(remote.taskIds);
    const report = await runBaseline(remote.environment, remote.taskIds, remote.limits, runId);
    console.log(formatBaselineTable(report, remote.difficulties));
    console.error(testRunLine(runId));
    return;
  }
  const scratch = values['database-url'] === undefined ? mkdtempSync(join(tmpdir(), 'supportdesk-baseline-')) : null;
  const databaseUrl = scratch ? `file:${join(scratch, 'baseline.db')}` : values['database-url']!;
  const config = loadConfig({ ...process.env, DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' });
  // Like the server's start: nothing pending takes no lock, so this runs beside a server using the same file.
  await migrateIfPending(config.databaseUrl, config.sqliteBusyTimeoutMs + 30_000, (note) => console.error(note));
  // The module without HTTP: the baseline runs through the same service POST /baseline uses.
  const app = await NestFactory.createApplicationContext(AppModule.register(config), { logger: false });
  try {
    const taskIds = app.get(TaskCatalog).list().map((e) => e.task.id);
    const anonymous = { kind: 'tenant', tenantId: PUBLIC_TENANT.id, keyId: null, scope: 'anonymous' } as const;
    const run = await app.get(RunsService).create(anonymous, baselineRunRequest(taskIds));
    const report = await app.get(BaselineService).run({ tenantId: PUBLIC_TENANT.id, keyId: null, seesWholeTenant: true, seesTestGrades: true }, taskIds, run.run_id);
    const difficulties = Object.fromEntries(app.get(TaskCatalog).list().map((e) => [e.task.id, e.task.difficulty]));
    console.log(formatBaselineTable(report, difficulties));
    console.error(testRunLine(run.run_id));
  } finally {
    await app.close();
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

/**
 * Where the test split's episodes went: an evaluation run, read with GET /runs/{id} (docs/evaluating-agents.md). On
 * stderr: its id is new every time, and stdout is the table, the same on every run.
 */
function testRunLine(runId: string): string {
  return `test split: evaluation run ${runId} (GET /runs/${runId})`;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
