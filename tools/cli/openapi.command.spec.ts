import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleArguments, flagsReadIn } from './command-conformance';
import { parseCommandLine } from './command-line';
import { OPENAPI_COMMAND } from './openapi.command';

const source = readFileSync(join(__dirname, 'openapi.ts'), 'utf8');

describe('npm run openapi', () => {
  it('takes no flags and one argument, read through the declaration', () => {
    expect(flagsReadIn(source)).toEqual([]);
    expect(Object.keys(OPENAPI_COMMAND.flags)).toEqual([]);
    expect(source).toContain('readCommandLine(OPENAPI_COMMAND).positionals');
    expect(source).not.toContain('process.argv');
  });

  it('writes openapi.json unless told another file, which CI relies on', () => {
    const line = parseCommandLine(OPENAPI_COMMAND, []);
    expect(line.kind === 'parsed' && line.positionals).toEqual(['openapi.json']);
    const other = parseCommandLine(OPENAPI_COMMAND, ['/tmp/x.json']);
    expect(other.kind === 'parsed' && other.positionals).toEqual(['/tmp/x.json']);
    expect(parseCommandLine(OPENAPI_COMMAND, ['a.json', 'b.json']).kind).toBe('error');
  });

  it('accepts every example its help shows', () => {
    for (const example of OPENAPI_COMMAND.examples ?? []) {
      expect(parseCommandLine(OPENAPI_COMMAND, exampleArguments(OPENAPI_COMMAND, example)).kind).toBe('parsed');
    }
  });
});
