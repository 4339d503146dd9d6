import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleArguments, flagsReadIn } from '../cli/command-conformance';
import { parseCommandLine } from '../cli/command-line';
import { AGENT_COMMAND } from './agent.command';

const source = readFileSync(join(__dirname, 'agent.cli.ts'), 'utf8');

describe('npm run agent', () => {
  it('declares exactly the flags agent.cli.ts reads, and reads no argument around the declaration', () => {
    expect(Object.keys(AGENT_COMMAND.flags).sort()).toEqual(flagsReadIn(source));
    expect(flagsReadIn(source)).toEqual(['canonical', 'families', 'feedback', 'show-scores', 'split', 'task', 'threshold', 'trials', 'url']);
    expect(source).toContain('readCommandLine(AGENT_COMMAND)');
    expect(source).not.toContain('process.argv');
  });

  it('keeps its defaults: one trial, the local server, pass at 1.0, final feedback', () => {
    const line = parseCommandLine(AGENT_COMMAND, []);
    expect(line.kind === 'parsed' && line.values).toEqual({
      families: undefined,
      task: undefined,
      split: undefined,
      canonical: false,
      trials: 1,
      url: 'http://localhost:7860',
      threshold: 1,
      feedback: 'final',
      'show-scores': false,
    });
  });

  it('refuses the values it refused before: trials outside 1-100, a threshold outside 0-1, an unknown split or feedback', () => {
    for (const args of [['--trials', '0'], ['--trials', '101'], ['--threshold', '1.5'], ['--split', 'dev'], ['--feedback', 'sparse']]) {
      expect(parseCommandLine(AGENT_COMMAND, args).kind).toBe('error');
    }
  });

  it('takes --split private (the private test split)', () => {
    const line = parseCommandLine(AGENT_COMMAND, ['--split', 'private']);
    expect(line.kind === 'parsed' && line.values.split).toBe('private');
  });

  it('accepts every example its help shows', () => {
    for (const example of AGENT_COMMAND.examples ?? []) expect(parseCommandLine(AGENT_COMMAND, exampleArguments(AGENT_COMMAND, example)).kind).toBe('parsed');
  });
});
