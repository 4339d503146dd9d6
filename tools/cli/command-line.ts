import { parseArgs } from 'node:util';
import type { CommandDeclaration, FlagDeclaration, FlagDeclarations, FlagValues, NumberFlag, StringFlag } from './command-declaration';
import { formatAcceptedFlags, formatHelp, HELP_FLAG } from './command-help';

export interface ParsedCommandLine<Flags extends FlagDeclarations> {
  values: FlagValues<Flags>;
  /** The arguments that are not flags, declared defaults filled in. */
  positionals: string[];
}

export type CommandLine<Flags extends FlagDeclarations> =
  | ({ kind: 'parsed' } & ParsedCommandLine<Flags>)
  | { kind: 'help'; text: string }
  /** `text` is the one-line reason naming the flag, then the flags the tool accepts. */
  | { kind: 'error'; text: string };

type ParseArgsOptions = Record<string, { type: 'string' | 'boolean'; short?: string }>;

/** The arguments read against the declaration, strictly: an undeclared flag or a bad value is an error, never ignored. */
export function parseCommandLine<Flags extends FlagDeclarations>(declaration: CommandDeclaration<Flags>, args: readonly string[]): CommandLine<Flags> {
  const options = parseArgsOptions(declaration.flags);
  const help = { kind: 'help', text: formatHelp(declaration) } as const;
  const refuse = (reason: string) => ({ kind: 'error', text: usageError(declaration, reason) }) as const;
  const { parsed, error } = strictParse(args, options);
  if (!parsed) {
    // `--help` wins over a mistake elsewhere on the line: whoever asks for help gets it.
    if (lenientOptionTokens(args, options).some((token) => token.name === HELP_FLAG.name)) return help;
    return refuse(explainRefusal(args, options, error));
  }
  if (parsed.values[HELP_FLAG.name]) return help;

  const values: Record<string, unknown> = {};
  for (const [name, flag] of Object.entries(declaration.flags)) {
    const converted = convert(name, flag, parsed.values[name]);
    if (converted.error) return refuse(converted.error);
    values[name] = converted.value;
  }

  const declared = declaration.positionals ?? [];
  if (parsed.positionals.length > declared.length) {
    const extra = parsed.positionals[declared.length];
    return refuse(`unexpected argument '${extra}' (${declared.length === 0 ? 'it takes none' : `it takes at most ${declared.length}`})`);
  }
  const missing = declared.slice(parsed.positionals.length).find((positional) => positional.required);
  if (missing) return refuse(`missing argument <${missing.name}>`);
  const positionals = declared.map((positional, i) => parsed.positionals[i] ?? positional.default).filter((value) => value !== undefined);
  return { kind: 'parsed', values: values as FlagValues<Flags>, positionals };
}

/** For the tool's entry point: prints the help and exits 0, or the error and exits 2, or returns what was given. */
export function readCommandLine<Flags extends FlagDeclarations>(
  declaration: CommandDeclaration<Flags>,
  args: readonly string[] = process.argv.slice(2),
): ParsedCommandLine<Flags> {
  const line = parseCommandLine(declaration, args);
  if (line.kind === 'help') {
    process.stdout.write(line.text);
    process.exit(0);
  }
  if (line.kind === 'error') {
    process.stderr.write(`${line.text}\n`);
    process.exit(2);
  }
  return line;
}

/** For a mistake only the tool can see (two flags that exclude each other): the same error form and exit code 2. */
export function refuseCommandLine(declaration: CommandDeclaration, reason: string): never {
  process.stderr.write(`${usageError(declaration, reason)}\n`);
  process.exit(2);
}

export function usageError(declaration: CommandDeclaration, reason: string): string {
  return `${declaration.name}: ${reason}\n${formatAcceptedFlags(declaration)}\nsee: ${declaration.invocation} --help`;
}

function parseArgsOptions(flags: FlagDeclarations): ParseArgsOptions {
  const options: ParseArgsOptions = { [HELP_FLAG.name]: { type: 'boolean', short: HELP_FLAG.short } };
  for (const [name, flag] of Object.entries(flags)) {
    if (name in options || (flag.short !== undefined && flag.short === HELP_FLAG.short)) throw new Error(`--${name}: --help and -h belong to every tool`);
    // Numbers travel as strings: parseArgs knows only strings and booleans; convert() checks them.
    options[name] = { type: flag.type === 'boolean' ? 'boolean' : 'string', ...(flag.short ? { short: flag.short } : {}) };
  }
  return options;
}

function strictParse(args: readonly string[], options: ParseArgsOptions) {
  try {
    return { parsed: parseArgs({ args: [...args], options, allowPositionals: true, strict: true }), error: undefined };
  } catch (error) {
    return { parsed: undefined, error: error as Error };
  }
}

/**
 * parseArgs names the problem in a sentence meant for its own API ("Unknown option '--x'. To specify a
 * positional argument…"); reading the same line leniently tells which flag it was, in the tool's words.
 */
function explainRefusal(args: readonly string[], options: ParseArgsOptions, error: Error): string {
  for (const token of lenientOptionTokens(args, options)) {
    const option = options[token.name];
    if (!option) return `unknown flag ${token.rawName}`;
    if (option.type === 'boolean' && token.value !== undefined) return `${token.rawName} takes no value`;
    if (option.type === 'boolean') continue;
    if (token.value === undefined) return `${token.rawName} needs a value`;
    // Strictly, `--threshold -1` reads as a flag missing its value followed by the flag -1.
    if (token.value.startsWith('-') && !token.inlineValue) {
      return `${token.rawName} needs a value (write ${token.rawName}=${token.value} for one that starts with '-')`;
    }
  }
  return error.message.split('\n')[0];
}

function lenientOptionTokens(args: readonly string[], options: ParseArgsOptions) {
  const { tokens } = parseArgs({ args: [...args], options, allowPositionals: true, strict: false, tokens: true });
  return tokens.flatMap((token) => (token.kind === 'option' ? [token] : []));
}

function convert(name: string, flag: FlagDeclaration, raw: string | boolean | undefined): { value?: unknown; error?: string } {
  if (flag.type === 'boolean') return { value: raw === true };
  if (raw === undefined) return { value: flag.default };
  return flag.type === 'number' ? convertNumber(name, flag, raw as string) : checkChoice(name, flag, raw as string);
}

function convertNumber(name: string, flag: NumberFlag, raw: string): { value?: number; error?: string } {
  const value = raw.trim() === '' ? NaN : Number(raw);
  const fits =
    Number.isFinite(value) &&
    (!flag.integer || Number.isInteger(value)) &&
    (flag.min === undefined || value >= flag.min) &&
    (flag.max === undefined || value <= flag.max);
  if (fits) return { value };
  const kind = flag.integer ? 'a whole number' : 'a number';
  const range =
    flag.min !== undefined && flag.max !== undefined
      ? ` from ${flag.min} to ${flag.max}`
      : flag.min !== undefined
        ? ` of at least ${flag.min}`
        : flag.max !== undefined
          ? ` of at most ${flag.max}`
          : '';
  return { error: `--${name} must be ${kind}${range}, got '${raw}'` };
}

function checkChoice(name: string, flag: StringFlag, raw: string): { value?: string; error?: string } {
  if (!flag.choices || flag.choices.includes(raw)) return { value: raw };
  const choices = flag.choices.length > 1 ? `${flag.choices.slice(0, -1).join(', ')} or ${flag.choices.at(-1)}` : flag.choices[0];
  return { error: `--${name} must be ${choices}, got '${raw}'` };
}
