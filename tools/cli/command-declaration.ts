/**
 * What a command-line tool accepts, declared once: the parser (command-line.ts) and the help text
 * (command-help.ts) are both made from it, so the help cannot list a flag the tool refuses or miss one it reads.
 * Each tool keeps its declaration in a module of its own (`*.command.ts`) that runs nothing when imported,
 * so specs can read it.
 */

interface FlagBase {
  /** One sentence or two for the help; the default is appended to it from `default`. */
  description: string;
  /** A one-letter alias, e.g. `n` for `-n`. */
  short?: string;
}

export interface StringFlag extends FlagBase {
  type: 'string';
  default?: string;
  /** The only values accepted, listed in the help. */
  choices?: readonly string[];
  /** How the value is shown in the help, e.g. `<url>`; `<a|b>` for choices, `<value>` otherwise. */
  placeholder?: string;
}

export interface NumberFlag extends FlagBase {
  type: 'number';
  default?: number;
  integer?: boolean;
  min?: number;
  max?: number;
  placeholder?: string;
}

/** Off unless given; it takes no value. */
export interface BooleanFlag extends FlagBase {
  type: 'boolean';
}

export type FlagDeclaration = StringFlag | NumberFlag | BooleanFlag;

export type FlagDeclarations = Record<string, FlagDeclaration>;

export interface PositionalDeclaration {
  /** Shown as `<name>` when required, `[name]` when not. */
  name: string;
  description: string;
  /** Optional arguments with a default are filled in with it. */
  default?: string;
  required?: boolean;
}

export interface CommandDeclaration<Flags extends FlagDeclarations = FlagDeclarations> {
  /** Names the tool in errors, e.g. `agent`. */
  name: string;
  /** How it is run, without flags or arguments, e.g. `npm run agent --`. */
  invocation: string;
  /** What it does, for the top of the help. */
  summary: string;
  flags: Flags;
  positionals?: readonly PositionalDeclaration[];
  /** Environment variables the tool reads, with what each means. */
  environment?: Readonly<Record<string, string>>;
  examples?: readonly string[];
}

/** The value a flag has after parsing: its default applied, numbers converted, choices narrowed. */
type FlagValue<Flag> = Flag extends BooleanFlag
  ? boolean
  : Flag extends NumberFlag
    ? Flag extends { default: number }
      ? number
      : number | undefined
    : Flag extends { choices: readonly (infer Choice)[] }
      ? Flag extends { default: string }
        ? Choice
        : Choice | undefined
      : Flag extends { default: string }
        ? string
        : string | undefined;

export type FlagValues<Flags extends FlagDeclarations> = { -readonly [Name in keyof Flags]: FlagValue<Flags[Name]> };

/**
 * Returns the declaration as written. It exists for the type: `const` keeps the literal choices and defaults,
 * so parsed values are typed (`'train' | 'test' | undefined`, `number`) without a cast in the tool.
 */
export function declareCommand<const Flags extends FlagDeclarations>(declaration: CommandDeclaration<Flags>): CommandDeclaration<Flags> {
  return declaration;
}
