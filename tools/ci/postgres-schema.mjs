#!/usr/bin/env node
/*
 * `node tools/ci/postgres-schema.mjs [--check]`: writes prisma/postgresql/schema.prisma from prisma/schema.prisma, the
 * one model definition. A schema's provider is fixed per file, so PostgreSQL needs a file of its own; this makes it
 * differ from the SQLite one only where it must:
 *   - the datasource's provider and its literal url (the CLI stays offline; the server builds its adapter from
 *     DATABASE_URL);
 *   - the generated client's folder (src/generated/prisma-postgres: each provider compiles its own queries);
 *   - every DateTime stored as `timestamptz(3)`: an instant, whatever the session's time zone (SQLite stores Unix
 *     milliseconds, src/database/sqlite-timestamp.ts).
 * With --check it writes nothing and fails when the committed file is not what it would write (a test runs it).
 * Plain JavaScript on purpose: it runs before anything is compiled.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const SOURCE = join(ROOT, 'prisma', 'schema.prisma');
const TARGET = join(ROOT, 'prisma', 'postgresql', 'schema.prisma');

const HEADER = [
  '// GENERATED from prisma/schema.prisma by tools/ci/postgres-schema.mjs: edit that file, then run this script.',
  '// The PostgreSQL twin of the SQLite schema; its migrations are in prisma/postgresql/migrations (docs/development.md, "Changing the schema").',
].join('\n');

/** Applies one rewrite that must match exactly `count` times, so a changed source fails loudly instead of drifting. */
function rewrite(text, pattern, replacement, count) {
  const found = text.match(new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`)) ?? [];
  if (count !== undefined && found.length !== count) {
    throw new Error(`prisma/schema.prisma: expected ${count} match(es) of ${pattern}, found ${found.length}`);
  }
  if (found.length === 0) throw new Error(`prisma/schema.prisma: no match of ${pattern}`);
  return text.replace(pattern, replacement);
}

export function postgresSchema(sqlite) {
  let text = sqlite;
  text = rewrite(text, /^\/\/ SupportDesk persistence\..*$/m, HEADER, 1);
  text = rewrite(text, /output(\s+)= "\.\.\/src\/generated\/prisma"/, 'output$1= "../../src/generated/prisma-postgres"', 1);
  text = rewrite(text, /provider = "sqlite"/, 'provider = "postgresql"', 1);
  text = rewrite(text, /url(\s+)= "file:\.\/data\/supportdesk\.db"/, 'url$1= "postgresql://localhost:5432/supportdesk"', 1);
  // `DateTime` and `DateTime?` fields, keeping the column alignment of the attributes after them.
  text = rewrite(text, /^(\s+\w+\s+DateTime\??)(\s+)(.*)$/gm, (_, field, gap, rest) => `${field}${gap}${rest} @db.Timestamptz(3)`);
  return text;
}

const generated = postgresSchema(readFileSync(SOURCE, 'utf8'));
if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(TARGET, 'utf8');
  } catch {
    // compared below as empty
  }
  if (committed !== generated) {
    console.error('prisma/postgresql/schema.prisma is not what prisma/schema.prisma makes: run `node tools/ci/postgres-schema.mjs`, then author a PostgreSQL migration (docs/development.md, "Changing the schema")');
    process.exit(1);
  }
} else {
  writeFileSync(TARGET, generated);
  console.log('wrote prisma/postgresql/schema.prisma');
}
