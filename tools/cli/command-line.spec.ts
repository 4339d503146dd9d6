import { declareCommand, type CommandDeclaration, type FlagDeclarations } from './command-declaration';
import { flagLabel } from './command-help';
import { parseCommandLine, type ParsedCommandLine } from './command-line';

const DEMO = declareCommand({
  name: 'demo',
  invocation: 'npm run demo --',
  summary: 'Does the demo.',
  flags: {
    url: { type: 'string', default: 'http://localhost:7860', placeholder: '<url>', description: 'Where the server is.' },
    split: { type: 'string', choices: ['train', 'test'], description: 'Which seeds.' },
    trials: { type: 'number', integer: true, min: 1, max: 100, default: 1, short: 'n', description: 'Trials per task.' },
    threshold: { type: 'number', min: 0, max: 1, description: 'Pass mark.' },
    verbose: { type: 'boolean', description: 'Say more.' },
  },
  positionals: [{ name: 'output', description: 'Where to write.', default: 'out.json' }],
  environment: { DEMO_KEY: 'The key.' },
  examples: ['npm run demo -- --split test'],
});

function parsed<Flags extends FlagDeclarations>(declaration: CommandDeclaration<Flags>, args: string[]): ParsedCommandLine<Flags> {
  const line = parseCommandLine(declaration, args);
  if (line.kind !== 'parsed') throw new Error(`expected a parse, got ${line.kind}: ${line.text}`);
  return line;
}

function refusal(args: string[], declaration: CommandDeclaration = DEMO): string[] {
  const line = parseCommandLine(declaration, args);
  if (line.kind !== 'error') throw new Error(`expected an error, got ${line.kind}`);
  return line.text.split('\n');
}

describe('parseCommandLine', () => {
  it('applies the declared defaults when nothing is given', () => {
    const { values, positionals } = parsed(DEMO, []);
    expect(values).toEqual({ url: 'http://localhost:7860', split: undefined, trials: 1, threshold: undefined, verbose: false });
    expect(positionals).toEqual(['out.json']);
  });

  it('reads every kind of flag, short aliases and = values, and converts numbers', () => {
    const { values, positionals } = parsed(DEMO, ['--url=http://x:1', '--split', 'test', '-n', '3', '--threshold', '0.5', '--verbose', 'here.json']);
    // Typed from the declaration: choices narrow, numbers with a default are never undefined.
    const split: 'train' | 'test' | undefined = values.split;
    const trials: number = values.trials;
    expect({ ...values, split, trials }).toEqual({ url: 'http://x:1', split: 'test', trials: 3, threshold: 0.5, verbose: true });
    expect(positionals).toEqual(['here.json']);
  });

  it('refuses an unknown flag in one line naming it, then lists every accepted flag', () => {
    expect(refusal(['--split', 'test', '--bogus'])).toEqual([
      'demo: unknown flag --bogus',
      'accepted flags: --url <url>, --split <train|test>, -n/--trials <n>, --threshold <n>, --verbose, -h/--help',
      'arguments: [output]',
      'see: npm run demo -- --help',
    ]);
    expect(refusal(['-x'])[0]).toBe('demo: unknown flag -x');
  });

  it.each([
    [['--trials', 'many'], "demo: --trials must be a whole number from 1 to 100, got 'many'"],
    [['--trials', '2.5'], "demo: --trials must be a whole number from 1 to 100, got '2.5'"],
    [['--trials', '101'], "demo: --trials must be a whole number from 1 to 100, got '101'"],
    [['--threshold='], "demo: --threshold must be a number from 0 to 1, got ''"],
    [['--split', 'dev'], "demo: --split must be train or test, got 'dev'"],
    [['--url'], 'demo: --url needs a value'],
    [['--verbose=yes'], 'demo: --verbose takes no value'],
    [['--threshold', '-1'], "demo: --threshold needs a value (write --threshold=-1 for one that starts with '-')"],
    [['a.json', 'b.json'], "demo: unexpected argument 'b.json' (it takes at most 1)"],
  ])('refuses %j: %s', (args, reason) => {
    expect(refusal(args)[0]).toBe(reason);
  });

  it('refuses arguments a tool does not take, and a missing required one', () => {
    const bare = declareCommand({ name: 'bare', invocation: 'bare', summary: 'Nothing.', flags: {} });
    expect(refusal(['x'], bare)).toEqual(["bare: unexpected argument 'x' (it takes none)", 'accepted flags: -h/--help', 'see: bare --help']);
    const load = declareCommand({ name: 'load', invocation: 'load', summary: 'Load.', flags: {}, positionals: [{ name: 'url', description: 'u', required: true }] });
    expect(refusal([], load)[0]).toBe('load: missing argument <url>');
    expect(refusal([], load)[2]).toBe('arguments: <url>');
  });

  it('answers --help and -h with the help, even beside a mistake', () => {
    for (const args of [['--help'], ['-h'], ['--bogus', '--help'], ['--trials', 'x', '-h']]) {
      expect(parseCommandLine(DEMO, args).kind).toBe('help');
    }
    // After `--` it is an argument like any other.
    expect(parsed(DEMO, ['--', '--help']).positionals).toEqual(['--help']);
  });

  it('writes a help that shows every declared flag with its meaning and default, the arguments and the environment', () => {
    const line = parseCommandLine(DEMO, ['--help']);
    const text = line.kind === 'help' ? line.text : '';
    expect(text.startsWith('Usage: npm run demo -- [flags] [output]\n')).toBe(true);
    // Wrapping aside, each flag's row reads: label, description, default.
    const flat = text.replace(/\s+/g, ' ');
    for (const [name, flag] of Object.entries(DEMO.flags)) {
      const meaning = flag.description.replace(/\.$/, '');
      expect(flat).toContain(`${flagLabel(name, flag)} ${meaning}${'default' in flag ? ` (default: ${flag.default})` : ''}.`);
    }
    expect(text).toContain('-h, --help');
    expect(text).toMatch(/\[output\] +Where to write \(default: out\.json\)\./);
    expect(text).toMatch(/DEMO_KEY +The key\./);
    expect(text).toContain('  npm run demo -- --split test');
  });

  it('keeps --help and -h for itself', () => {
    const clash = declareCommand({ name: 'x', invocation: 'x', summary: 'x', flags: { hold: { type: 'boolean', short: 'h', description: 'x' } } });
    expect(() => parseCommandLine(clash, [])).toThrow('--help and -h belong to every tool');
  });
});
