/**
 * The repositories' statements are written once, in the SQL both databases share, with SQLite's parameter markers
 * (`?`, `@name`). PostgreSQL numbers its parameters (`$1`), so its connection translates each text once, here:
 * the markers; a blob as lower-case hex (`lower(hex(x))`, which is `encode(x, 'hex')` on PostgreSQL); and SQLite's
 * index hints (`INDEXED BY`), which PostgreSQL's planner does without. Everything else a statement uses is written
 * so both read it alike (quoted camelCase aliases, COALESCE, CASE, and `epoch_ms(t)`, a time as Unix milliseconds,
 * which PostgreSQL's migration defines and SQLite's connection reads as `t`: sqlite-connection.ts);
 * `test/postgres/statements.spec.ts` prepares every statement on PostgreSQL.
 *
 * Linear in the text: one pass over it, skipping string literals and quoted identifiers.
 */
export interface TranslatedStatement {
  text: string;
  /** For `@name` markers: the parameter names in `$n` order (the same name reuses its number). Null for `?` markers. */
  names: string[] | null;
}

export function toPostgres(sqlite: string): TranslatedStatement {
  const rewritten = sqlite.replace(/lower\(hex\(([\w.]+)\)\)/g, "encode($1, 'hex')").replace(/\s+INDEXED BY \w+/g, '');
  let out = '';
  let positional = 0;
  const names: string[] = [];
  let usesNames = false;
  for (let i = 0; i < rewritten.length; i++) {
    const c = rewritten[i];
    if (c === "'" || c === '"') {
      const end = closingQuote(rewritten, i, c);
      out += rewritten.slice(i, end + 1);
      i = end;
    } else if (c === '?') {
      out += `$${++positional}`;
    } else if (c === '@' && /[A-Za-z_]/.test(rewritten[i + 1] ?? '')) {
      let j = i + 1;
      while (j < rewritten.length && /\w/.test(rewritten[j])) j++;
      const name = rewritten.slice(i + 1, j);
      let index = names.indexOf(name);
      if (index < 0) index = names.push(name) - 1;
      usesNames = true;
      out += `$${index + 1}`;
      i = j - 1;
    } else {
      out += c;
    }
  }
  if (usesNames && positional > 0) throw new Error(`a statement mixes ? and @name parameters: ${sqlite.slice(0, 80)}`);
  return { text: out, names: usesNames ? names : null };
}

/** The index of the quote closing the literal that opens at `start` (a doubled quote is an escaped one). */
function closingQuote(text: string, start: number, quote: string): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] !== quote) continue;
    if (text[i + 1] === quote) {
      i++;
      continue;
    }
    return i;
  }
  throw new Error(`unterminated ${quote} in a statement: ${text.slice(start, start + 80)}`);
}

/** The values of a translated statement's parameters, in `$n` order. */
export function postgresValues(statement: TranslatedStatement, params: readonly unknown[] | Readonly<Record<string, unknown>> | undefined): unknown[] {
  if (params === undefined) return [];
  if (statement.names === null) {
    if (!Array.isArray(params)) throw new Error('a statement with ? parameters was given named ones');
    return [...params];
  }
  if (Array.isArray(params)) throw new Error('a statement with @name parameters was given positional ones');
  const named = params as Readonly<Record<string, unknown>>;
  return statement.names.map((name) => {
    if (!(name in named)) throw new Error(`no value for the statement's parameter @${name}`);
    return named[name];
  });
}
