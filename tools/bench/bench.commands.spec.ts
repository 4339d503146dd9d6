import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CommandDeclaration } from '../cli/command-declaration';
import { exampleArguments, flagsReadIn } from '../cli/command-conformance';
import { parseCommandLine } from '../cli/command-line';
import {
  AUDIT_QUERIES_COMMAND,
  BACKUP_BENCH_COMMAND,
  BENCH_COMMAND,
  FLOOR_SERVER_COMMAND,
  MIX_LOAD_COMMAND,
  REPLICAS_BENCH_COMMAND,
  REPLY_GRADING_COMMAND,
  SIDE_BY_SIDE_COMMAND,
  STEP_STAGES_COMMAND,
  SERVER_FIGURES_COMMAND,
  STEP_LOAD_COMMAND,
  STEP_THROUGHPUT_COMMAND,
  STORAGE_COMMAND,
} from './bench.commands';

const ENTRIES: [string, string, CommandDeclaration][] = [
  ['all.bench.ts', 'BENCH_COMMAND', BENCH_COMMAND],
  ['step-throughput.bench.ts', 'STEP_THROUGHPUT_COMMAND', STEP_THROUGHPUT_COMMAND],
  ['server-figures.bench.ts', 'SERVER_FIGURES_COMMAND', SERVER_FIGURES_COMMAND],
  ['audit-queries.bench.ts', 'AUDIT_QUERIES_COMMAND', AUDIT_QUERIES_COMMAND],
  ['reply-grading.bench.ts', 'REPLY_GRADING_COMMAND', REPLY_GRADING_COMMAND],
  ['step-load.ts', 'STEP_LOAD_COMMAND', STEP_LOAD_COMMAND],
  ['floor-server.ts', 'FLOOR_SERVER_COMMAND', FLOOR_SERVER_COMMAND],
  ['side-by-side.bench.ts', 'SIDE_BY_SIDE_COMMAND', SIDE_BY_SIDE_COMMAND],
  ['mix-load.ts', 'MIX_LOAD_COMMAND', MIX_LOAD_COMMAND],
  ['step-stages.bench.ts', 'STEP_STAGES_COMMAND', STEP_STAGES_COMMAND],
  ['backup.bench.ts', 'BACKUP_BENCH_COMMAND', BACKUP_BENCH_COMMAND],
  ['storage.bench.ts', 'STORAGE_COMMAND', STORAGE_COMMAND],
  ['replicas.bench.ts', 'REPLICAS_BENCH_COMMAND', REPLICAS_BENCH_COMMAND],
];

const sourceOf = (file: string) => readFileSync(join(__dirname, file), 'utf8');

describe.each(ENTRIES)('%s', (file, constant, declaration) => {
  it('reads its command line through its declaration only, and every flag it reads is declared', () => {
    const source = sourceOf(file);
    expect(source).toContain(`readCommandLine(${constant})`);
    expect(source).not.toContain('process.argv');
    expect(flagsReadIn(source)).toEqual(Object.keys(declaration.flags).sort());
  });

  it('names in its help every environment variable it reads', () => {
    const read = [...sourceOf(file).matchAll(/process\.env\.([A-Z_]+)/g)].map((match) => match[1]);
    expect(read.filter((name) => !(name in (declaration.environment ?? {})))).toEqual([]);
  });

  it('accepts every example its help shows', () => {
    for (const example of declaration.examples ?? []) expect(parseCommandLine(declaration, exampleArguments(declaration, example)).kind).toBe('parsed');
  });
});

describe('the step benchmark and its child processes', () => {
  const source = sourceOf('step-throughput.bench.ts');

  it('starts step-load with the four arguments it declares, in every mode it uses', () => {
    for (const mode of ['constant', 'step', 'ws', 'pipeline']) {
      expect(source).toContain(`'${mode}'`);
      expect(parseCommandLine(STEP_LOAD_COMMAND, ['http://127.0.0.1:1', '8', '8', mode]).kind).toBe('parsed');
    }
    expect(parseCommandLine(STEP_LOAD_COMMAND, ['http://127.0.0.1:1', '8']).kind).toBe('error');
  });

  it('starts the floor server on both platforms it declares', () => {
    for (const platform of ['fastify', 'express']) {
      expect(source).toContain(`'bench/floor-server.js', ['${platform}']`);
      expect(parseCommandLine(FLOOR_SERVER_COMMAND, [platform]).kind).toBe('parsed');
    }
  });
});
