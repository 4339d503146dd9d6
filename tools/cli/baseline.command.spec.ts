import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BASELINE_COMMAND } from './baseline.command';
import { exampleArguments, flagsReadIn } from './command-conformance';
import { parseCommandLine } from './command-line';

const source = readFileSync(join(__dirname, 'baseline.ts'), 'utf8');

describe('npm run baseline', () => {
  it('declares exactly the flags baseline.ts reads, and reads no argument around the declaration', () => {
    expect(Object.keys(BASELINE_COMMAND.flags).sort()).toEqual(flagsReadIn(source));
    expect(flagsReadIn(source)).toEqual(['database-url', 'url']);
    expect(source).toContain('readCommandLine(BASELINE_COMMAND)');
    expect(source).not.toContain('process.argv');
  });

  it('refuses a flag without its value instead of running on a scratch database', () => {
    expect(parseCommandLine(BASELINE_COMMAND, ['--url']).kind).toBe('error');
    expect(parseCommandLine(BASELINE_COMMAND, ['--database-url']).kind).toBe('error');
  });

  it('accepts every example its help shows', () => {
    for (const example of BASELINE_COMMAND.examples ?? []) {
      expect(parseCommandLine(BASELINE_COMMAND, exampleArguments(BASELINE_COMMAND, example)).kind).toBe('parsed');
    }
  });
});
