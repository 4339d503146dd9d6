import 'reflect-metadata';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadConfig } from '../../src/config/app-config';
import { createApp } from '../../src/app/create-app';
import { migrateDatabase } from '../../src/database/migrate';
import { ApiDocumentService } from '../../src/openapi/api-document.service';
import { readCommandLine } from './command-line';
import { OPENAPI_COMMAND } from './openapi.command';

/** `npm run openapi`: see openapi.command.ts, or `npm run openapi -- --help`. */
async function main(): Promise<void> {
  const [output] = readCommandLine(OPENAPI_COMMAND).positionals;
  const scratch = mkdtempSync(join(tmpdir(), 'supportdesk-openapi-'));
  const databaseUrl = `file:${join(scratch, 'openapi.db')}`;
  migrateDatabase(databaseUrl);
  // Defaults only: the document must not depend on whoever runs the script.
  const app = await createApp(loadConfig({ DATABASE_URL: databaseUrl, LOG_LEVEL: 'silent' }));
  try {
    const document = sortKeys(app.get(ApiDocumentService).get());
    const target = resolve(output);
    writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
    console.log(`wrote ${target}`);
  } finally {
    await app.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortKeys((value as Record<string, unknown>)[key])]),
  );
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
