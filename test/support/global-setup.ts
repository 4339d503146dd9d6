import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrateDatabase } from './migrate';

/** Migrates one template database per run; each e2e test file copies it, so every file starts fresh. */
export default function globalSetup(): void {
  const dir = mkdtempSync(join(tmpdir(), 'supportdesk-test-'));
  const template = join(dir, 'template.db');
  migrateDatabase(`file:${template}`);
  process.env.SUPPORTDESK_TEMPLATE_DB = template;
}
