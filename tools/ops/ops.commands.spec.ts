import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandDeclaration } from '../cli/command-declaration';
import { exampleArguments, flagsReadIn } from '../cli/command-conformance';
import { parseCommandLine } from '../cli/command-line';
import { BACKUP_COMMAND } from './backup.command';
import { RESTORE_COMMAND } from './restore.command';

const ENTRIES: [string, string, CommandDeclaration, string][] = [
  ['backup.ts', 'BACKUP_COMMAND', BACKUP_COMMAND, 'to'],
  ['restore.ts', 'RESTORE_COMMAND', RESTORE_COMMAND, 'from'],
];

const sourceOf = (file: string) => readFileSync(join(__dirname, file), 'utf8');

describe.each(ENTRIES)('%s', (file, constant, declaration, required) => {
  it('reads its command line through its declaration only, and every flag it reads is declared', () => {
    const source = sourceOf(file);
    expect(source).toContain(`readCommandLine(${constant})`);
    expect(source).not.toContain('process.argv');
    expect(flagsReadIn(source)).toEqual(Object.keys(declaration.flags).sort());
  });

  it(`refuses a --${required} without its value, and a flag it does not know, before touching anything`, () => {
    expect(parseCommandLine(declaration, [`--${required}`]).kind).toBe('error');
    expect(parseCommandLine(declaration, [`--${required}`, 'x.db', '--overwrite']).kind).toBe('error');
    expect(parseCommandLine(declaration, [`--${required}`, 'x.db', 'extra']).kind).toBe('error');
    // The declaration cannot say a flag is required; the tool refuses its absence in the same form (exit code 2).
    expect(sourceOf(file)).toContain(`if (values.${required} === undefined) refuseCommandLine(${constant}, 'missing --${required} <file>`);
  });

  it('reads the server\'s configuration as the server does, never DATABASE_URL on its own', () => {
    const source = sourceOf(file);
    expect(source).toContain('loadConfig(process.env)');
    expect(source).not.toMatch(/process\.env\.[A-Z]/);
  });

  it('accepts every example its help shows', () => {
    for (const example of declaration.examples ?? []) expect(parseCommandLine(declaration, exampleArguments(declaration, example)).kind).toBe('parsed');
  });
});

it('backup steps through the database a bounded number of pages at a time', () => {
  expect(parseCommandLine(BACKUP_COMMAND, ['--to', 'x.db', '--step-pages', '0']).kind).toBe('error');
  // Undeclared default (PostgreSQL refuses the flag when given): the help names it, backup.ts applies it.
  const line = parseCommandLine(BACKUP_COMMAND, ['--to', 'x.db']);
  expect(line.kind === 'parsed' && line.values['step-pages']).toBeUndefined();
  expect(BACKUP_COMMAND.flags['step-pages'].description).toContain('(default: 1024)');
  expect(sourceOf('backup.ts')).toContain("values['step-pages'] ?? DEFAULT_STEP_PAGES");
});
