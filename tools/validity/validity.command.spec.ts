import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleArguments, flagsReadIn } from '../cli/command-conformance';
import { parseCommandLine } from '../cli/command-line';
import { VALIDITY_COMMAND } from './validity.command';

const source = readFileSync(join(__dirname, 'validity.cli.ts'), 'utf8');

describe('npm run validity', () => {
  it('declares exactly the flags validity.cli.ts reads, and reads no argument around the declaration', () => {
    expect(Object.keys(VALIDITY_COMMAND.flags).sort()).toEqual(flagsReadIn(source));
    expect(flagsReadIn(source)).toEqual(['failures', 'grader', 'seeds']);
    expect(source).toContain('readCommandLine(VALIDITY_COMMAND)');
    expect(source).not.toContain('process.argv');
  });

  it('proves the families on 1,000 seeds unless told otherwise, and refuses a count that is not a whole number', () => {
    const line = parseCommandLine(VALIDITY_COMMAND, []);
    expect(line.kind === 'parsed' && line.values).toEqual({ seeds: 1000, failures: false });
    for (const seeds of ['many', '0', '2.5']) expect(parseCommandLine(VALIDITY_COMMAND, ['--seeds', seeds]).kind).toBe('error');
  });

  it('accepts every example its help shows', () => {
    for (const example of VALIDITY_COMMAND.examples ?? []) {
      expect(parseCommandLine(VALIDITY_COMMAND, exampleArguments(VALIDITY_COMMAND, example)).kind).toBe('parsed');
    }
  });
});
