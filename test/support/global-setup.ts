import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateDatabase } from './migrate';

/**
 * One folder per run holds everything the tests write (TMPDIR points into it, so every mkdtemp of every suite
 * lands there) and is removed by the teardown; one template database is migrated into it, and each e2e file
 * copies it, so every file starts fresh.
 */
export default function globalSetup(): void {
  const run = mkdtempSync(join(tmpdir(), 'supportdesk-test-run-'));
  process.env.SUPPORTDESK_TEST_RUN_DIR = run;
  process.env.TMPDIR = run;
  const template = join(run, 'template.db');
  migrateDatabase(`file:${template}`);
  process.env.SUPPORTDESK_TEMPLATE_DB = template;
}
