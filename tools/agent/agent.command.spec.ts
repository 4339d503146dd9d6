import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exampleArguments, flagsReadIn } from '../cli/command-conformance';
import { parseCommandLine } from '../cli/command-line';
import { AGENT_COMMAND } from './agent.command';
import { resolveSettings, resumeCommand, type AgentEnvironment } from './agent-settings';

const cli = readFileSync(join(__dirname, 'agent.cli.ts'), 'utf8');
const settingsSource = readFileSync(join(__dirname, 'agent-settings.ts'), 'utf8');

function parsed(args: string[]) {
  const line = parseCommandLine(AGENT_COMMAND, args);
  if (line.kind !== 'parsed') throw new Error(`expected ${args.join(' ')} to parse: ${line.text}`);
  return line.values;
}

function settingsOf(args: string[], env: AgentEnvironment = {}) {
  return resolveSettings(parsed(args), env);
}

const MODEL = ['--model', 'm', '--model-url', 'http://localhost:11434/v1'];

describe('npm run agent: the flags', () => {
  it('declares exactly the flags its code reads, and reads no argument around the declaration', () => {
    const read = [...new Set([...flagsReadIn(cli), ...flagsReadIn(settingsSource)])].sort();
    expect(Object.keys(AGENT_COMMAND.flags).sort()).toEqual(read);
    expect(cli).toContain('readCommandLine(AGENT_COMMAND)');
    expect(cli + settingsSource).not.toContain('process.argv');
  });

  it('parses the line of the brief, and declares no default for a flag that shapes a new run', () => {
    expect(parsed(['--url', 'http://h:1', '--model', 'm', '--name', 'n', '--tasks', 'all', '--split', 'test', '--seed-count', '5', '--trials', '3'])).toEqual({
      url: 'http://h:1',
      model: 'm',
      'model-url': undefined,
      run: undefined,
      name: 'n',
      tasks: 'all',
      families: undefined,
      split: 'test',
      canonical: false,
      'seed-count': 5,
      seeds: undefined,
      trials: 3,
      threshold: undefined,
      feedback: undefined,
      concurrency: 4,
      'reader-key': undefined,
      'model-timeout': 120,
      'model-retries': 4,
      'show-scores': false,
    });
  });

  it('refuses unknown flags and bad values (the CLI framework)', () => {
    for (const args of [
      ['--threads', '2'],
      ['--trials', '0'],
      ['--trials', '21'],
      ['--split', 'private'],
      ['--feedback', 'sparse'],
      ['--concurrency', '0'],
      ['--concurrency', '1.5'],
      ['--seed-count', 'many'],
      ['--threshold', '1.5'],
    ]) {
      expect(parseCommandLine(AGENT_COMMAND, args).kind).toBe('error');
    }
    const unknown = parseCommandLine(AGENT_COMMAND, ['--threads', '2']);
    expect(unknown.kind === 'error' && unknown.text).toMatch(/^agent: unknown flag --threads\naccepted flags: .*--concurrency <n>/);
  });

  it('answers --help with every flag and the environment', () => {
    const help = parseCommandLine(AGENT_COMMAND, ['--run', 'x', '--help']);
    expect(help.kind).toBe('help');
    const text = help.kind === 'help' ? help.text : '';
    for (const flag of ['--run <run_id>', '--concurrency <n>', '--reader-key <key>', '--seed-count <n>', 'API_BASE_URL', 'SUPPORTDESK_READER_KEY']) expect(text).toContain(flag);
  });

  it('accepts every example its help shows, and each makes settings', () => {
    for (const example of AGENT_COMMAND.examples ?? []) {
      const args = exampleArguments(AGENT_COMMAND, example);
      expect(settingsOf(args, { MODEL_NAME: 'm', API_BASE_URL: 'http://localhost:8000/v1' })).toHaveProperty('settings');
    }
  });
});

describe('npm run agent: the settings the flags and the environment make', () => {
  it('a new run: all families, the test split, one seed, one trial, final feedback, unless told otherwise', () => {
    expect(settingsOf(MODEL)).toEqual({
      settings: {
        url: 'http://localhost:7860',
        agentKey: undefined,
        readerKey: undefined,
        modelName: 'm',
        modelUrl: 'http://localhost:11434/v1',
        modelKey: undefined,
        modelTimeoutMs: 120_000,
        modelRetries: 4,
        concurrency: 4,
        showScores: false,
        run: { create: { families: 'all', split: 'test', seed_count: 1, trials: 1, feedback: 'final' } },
      },
    });
    const full = settingsOf([...MODEL, '--tasks', 'a, b', '--split', 'train', '--seeds', '1,2,3', '--trials', '4', '--feedback', 'dense', '--threshold', '0.8', '--name', 'x']);
    expect(full).toMatchObject({
      settings: { run: { create: { name: 'x', families: ['a', 'b'], split: 'train', seeds: [1, 2, 3], trials: 4, feedback: 'dense', success_threshold: 0.8 } } },
    });
    expect(settingsOf([...MODEL, '--families', 'a', '--canonical'])).toMatchObject({ settings: { run: { create: { families: ['a'], split: 'canonical' } } } });
  });

  it('reads the model and the keys from the environment when no flag gives them; a flag wins', () => {
    const env = { API_BASE_URL: 'http://env:1/v1', MODEL_NAME: 'env-model', HF_TOKEN: 'hf', SUPPORTDESK_API_KEY: 'agent', SUPPORTDESK_READER_KEY: 'reader' };
    expect(settingsOf([], env)).toMatchObject({ settings: { modelUrl: 'http://env:1/v1', modelName: 'env-model', modelKey: 'hf', agentKey: 'agent', readerKey: 'reader' } });
    expect(settingsOf(['--model', 'flag', '--reader-key', 'r2'], { ...env, API_KEY: 'k' })).toMatchObject({ settings: { modelName: 'flag', modelKey: 'k', readerKey: 'r2' } });
    // A local server needs no key: none is required.
    expect(settingsOf(MODEL)).toMatchObject({ settings: { modelKey: undefined } });
  });

  it('resumes with --run, the model the run names unless one is given, and refuses every flag that shapes a new run', () => {
    expect(settingsOf(['--run', 'run_1', '--model-url', 'http://m/v1', '--concurrency', '2'])).toMatchObject({
      settings: { modelName: null, concurrency: 2, run: { resume: 'run_1' } },
    });
    for (const flag of [['--tasks', 'all'], ['--families', 'a'], ['--split', 'test'], ['--canonical'], ['--seed-count', '2'], ['--seeds', '1'], ['--trials', '2'], ['--feedback', 'final'], ['--name', 'n'], ['--threshold', '1']]) {
      expect(settingsOf(['--run', 'run_1', '--model-url', 'http://m/v1', ...flag])).toEqual({ error: `--run resumes a run as it was created: ${flag[0]} cannot change it` });
    }
  });

  it('refuses what cannot make a run', () => {
    const cases: [string[], AgentEnvironment, RegExp][] = [
      [['--model', 'm'], {}, /--model-url \(or API_BASE_URL\)/],
      [['--model-url', 'http://m/v1'], {}, /--model \(or MODEL_NAME\)/],
      [['--model', 'm', '--model-url', 'localhost:8000'], {}, /must be an http\(s\) URL/],
      [[...MODEL, '--feedback', 'dense'], {}, /test run is played with feedback final only/],
      [[...MODEL, '--split', 'test', '--feedback', 'dense'], {}, /final only/],
      [[...MODEL, '--seeds', '1,2', '--seed-count', '2'], {}, /exclude each other/],
      [[...MODEL, '--seeds', '1,x'], {}, /--seeds must be whole numbers/],
      [[...MODEL, '--seeds', '1,1'], {}, /--seeds must be whole numbers/],
      [[...MODEL, '--canonical', '--split', 'train'], {}, /--canonical is --split canonical/],
      [[...MODEL, '--tasks', 'a', '--families', 'b'], {}, /same flag/],
      [[...MODEL, '--tasks', ','], {}, /needs task ids/],
    ];
    for (const [args, env, error] of cases) expect(settingsOf(args, env)).toEqual({ error: expect.stringMatching(error) });
  });

  it('prints a resume command that parses back to the same run, the same endpoints and the same concurrency', () => {
    const command = resumeCommand({ url: 'http://localhost:7860', modelUrl: 'http://localhost:11434/v1', concurrency: 2 }, 'run_abc');
    expect(command).toBe('npm run agent -- --run run_abc --url http://localhost:7860 --model-url http://localhost:11434/v1 --concurrency 2');
    expect(settingsOf(exampleArguments(AGENT_COMMAND, command))).toMatchObject({
      settings: { url: 'http://localhost:7860', modelUrl: 'http://localhost:11434/v1', concurrency: 2, run: { resume: 'run_abc' } },
    });
    expect(resumeCommand({ url: "http://h/it's", modelUrl: 'http://m/v1', concurrency: 4 }, 'r')).toBe("npm run agent -- --run r --url 'http://h/it'\\''s' --model-url http://m/v1");
  });
});
