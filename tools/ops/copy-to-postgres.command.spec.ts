import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleArguments, flagsReadIn } from '../cli/command-conformance';
import { parseCommandLine } from '../cli/command-line';
import { COPY_TO_POSTGRES_COMMAND } from './copy-to-postgres.command';

const source = readFileSync(join(__dirname, 'copy-to-postgres.ts'), 'utf8');

it('reads its command line through its declaration only, and every flag it reads is declared', () => {
  expect(source).toContain('readCommandLine(COPY_TO_POSTGRES_COMMAND)');
  expect(source).not.toContain('process.argv');
  expect(flagsReadIn(source)).toEqual(Object.keys(COPY_TO_POSTGRES_COMMAND.flags).sort());
});

it("reads the server's configuration as the server does, and takes the target's URL from the environment only", () => {
  expect(source).toContain('loadConfig(process.env)');
  expect(source).not.toMatch(/process\.env\.[A-Z]/);
  // A password on the command line is visible in the process list: no flag takes a URL of the target.
  expect(Object.keys(COPY_TO_POSTGRES_COMMAND.flags)).not.toContain('to');
  expect(COPY_TO_POSTGRES_COMMAND.environment).toHaveProperty('TARGET_DATABASE_URL');
});

it('refuses a flag it does not know, a flag without its value and an extra argument, before touching anything', () => {
  expect(parseCommandLine(COPY_TO_POSTGRES_COMMAND, ['--from']).kind).toBe('error');
  expect(parseCommandLine(COPY_TO_POSTGRES_COMMAND, ['--to', 'postgresql://u:p@h/d']).kind).toBe('error');
  expect(parseCommandLine(COPY_TO_POSTGRES_COMMAND, ['--from', 'file:x.db', 'extra']).kind).toBe('error');
  expect(parseCommandLine(COPY_TO_POSTGRES_COMMAND, ['--concurrency', '0']).kind).toBe('error');
});

it('accepts every example its help shows', () => {
  for (const example of COPY_TO_POSTGRES_COMMAND.examples ?? []) {
    expect(parseCommandLine(COPY_TO_POSTGRES_COMMAND, exampleArguments(COPY_TO_POSTGRES_COMMAND, example)).kind).toBe('parsed');
  }
});
