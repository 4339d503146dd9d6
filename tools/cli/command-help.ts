import type { CommandDeclaration, FlagDeclaration, PositionalDeclaration } from './command-declaration';

/** Every tool has it; the parser adds it to the declared flags. */
export const HELP_FLAG = { name: 'help', short: 'h', description: 'Print this help and exit.' } as const;

const WIDTH = 100;
/** Labels longer than this put their description on the next line instead of pushing the column right. */
const MAX_LABEL = 28;

/** `-n, --seeds <n>`: how the flag is written, with its value's placeholder. */
export function flagLabel(name: string, flag: FlagDeclaration): string {
  const short = flag.short ? `-${flag.short}, ` : '';
  return `${short}--${name}${flag.type === 'boolean' ? '' : ` ${placeholder(flag)}`}`;
}

/** The one-line list an error ends with: every flag the tool accepts. */
export function formatAcceptedFlags(declaration: CommandDeclaration): string {
  const flags = Object.entries(declaration.flags).map(([name, flag]) => flagLabel(name, flag).replace(', ', '/'));
  const lines = [`accepted flags: ${[...flags, `-${HELP_FLAG.short}/--${HELP_FLAG.name}`].join(', ')}`];
  if (declaration.positionals?.length) lines.push(`arguments: ${declaration.positionals.map(positionalLabel).join(' ')}`);
  return lines.join('\n');
}

export function formatHelp(declaration: CommandDeclaration): string {
  const positionals = declaration.positionals ?? [];
  const usage = [declaration.invocation, '[flags]', ...positionals.map(positionalLabel)].join(' ');
  const sections = [`Usage: ${usage}`, ...declaration.summary.split('\n\n').map((paragraph) => wrap(paragraph, 0))];

  const flagRows = Object.entries(declaration.flags).map(([name, flag]) => [flagLabel(name, flag), withDefault(flag.description, defaultOf(flag))] as const);
  flagRows.push([`-${HELP_FLAG.short}, --${HELP_FLAG.name}`, HELP_FLAG.description]);
  sections.push(`Flags:\n${table(flagRows)}`);
  if (positionals.length) {
    sections.push(`Arguments:\n${table(positionals.map((p) => [positionalLabel(p), withDefault(p.description, p.default)]))}`);
  }
  const environment = Object.entries(declaration.environment ?? {});
  if (environment.length) sections.push(`Environment:\n${table(environment)}`);
  if (declaration.examples?.length) sections.push(`Examples:\n${declaration.examples.map((example) => `  ${example}`).join('\n')}`);
  return `${sections.join('\n\n')}\n`;
}

function placeholder(flag: Exclude<FlagDeclaration, { type: 'boolean' }>): string {
  if (flag.placeholder) return flag.placeholder;
  if (flag.type === 'string' && flag.choices) return `<${flag.choices.join('|')}>`;
  return flag.type === 'number' ? '<n>' : '<value>';
}

function positionalLabel(positional: PositionalDeclaration): string {
  return positional.required ? `<${positional.name}>` : `[${positional.name}]`;
}

function defaultOf(flag: FlagDeclaration): string | undefined {
  return flag.type === 'boolean' || flag.default === undefined ? undefined : String(flag.default);
}

/** "Trials per task (default: 1)." : the default inside the sentence, so a URL is never followed by a full stop. */
function withDefault(description: string, value: string | undefined): string {
  if (value === undefined) return description;
  return description.endsWith('.') ? `${description.slice(0, -1)} (default: ${value}).` : `${description} (default: ${value})`;
}

/** Two columns: labels, then their descriptions wrapped under each other. */
function table(rows: readonly (readonly [string, string])[]): string {
  const column = Math.min(MAX_LABEL, Math.max(...rows.map(([label]) => label.length))) + 4;
  return rows
    .map(([label, text]) => {
      const body = wrap(text, column);
      const head = `  ${label}`;
      return head.length + 2 <= column ? head + body.slice(head.length) : `${head}\n${body}`;
    })
    .join('\n');
}

/** Wraps at word boundaries to WIDTH, every line indented by `indent`. */
function wrap(text: string, indent: number): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && indent + line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  lines.push(line);
  return lines.map((l) => ' '.repeat(indent) + l).join('\n');
}
