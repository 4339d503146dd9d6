import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleArguments, flagsReadIn } from '../cli/command-conformance';
import { parseCommandLine } from '../cli/command-line';
import { METRICS_COMMAND } from './metrics.command';

const source = readFileSync(join(__dirname, 'metrics.ts'), 'utf8');

describe('npm run architecture:metrics', () => {
  it('takes no flags and one folder, read through the declaration', () => {
    expect(flagsReadIn(source)).toEqual([]);
    expect(Object.keys(METRICS_COMMAND.flags)).toEqual([]);
    expect(source).toContain('readCommandLine(METRICS_COMMAND).positionals');
    expect(source).not.toContain('process.argv');
  });

  it('measures the current folder unless given another', () => {
    const line = parseCommandLine(METRICS_COMMAND, []);
    expect(line.kind === 'parsed' && line.positionals).toEqual(['.']);
    for (const example of METRICS_COMMAND.examples ?? []) {
      expect(parseCommandLine(METRICS_COMMAND, exampleArguments(METRICS_COMMAND, example)).kind).toBe('parsed');
    }
  });
});
