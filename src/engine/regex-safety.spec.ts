import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

/*
 * No regular expression in the engine may backtrack super-linearly on the text it reads: replies and queries come
 * from agents, and one pattern that backtracked quadratically on a crafted reply stalled grading for minutes
 * (docs/grading.md, "What reading a reply may cost"). This spec reads every regex literal and `new RegExp` in
 * src/engine and checks each pattern for three shapes that backtrack:
 *   - nested: a repeated group that holds a repeated element, `(x+)+`, `(x*)*`, `(?:'\p{L}+)*`;
 *   - adjacent: a repeated element followed, with only optional elements between, by another repeated element that
 *     can match the same characters, `\s*\s*`, `[ -]*-{3,}[ -]*`: every split of a run between them is tried;
 *   - rescanned: in a pattern that may start anywhere (no `^`, not sticky), a repeated element that can match the
 *     characters a match starts with, followed by something that can fail, `[\p{L}.]+$`, `[.!?]+(?=\s)`: each
 *     start inside a long run reads the rest of the run again.
 * The check is a conservative sketch over a sample of characters, not a proof. A pattern it flags is rewritten, or
 * listed in REVIEWED with the reason it is safe where it is used; a reviewed entry that no longer exists fails too.
 */

const ENGINE = join(__dirname);
const ROOT = join(__dirname, '..', '..');

/** Flagged patterns that were reviewed, by file and pattern source, with why each is safe where it is used. */
const REVIEWED: { file: string; source: string; why: string }[] = [
  {
    file: 'src/engine/graders/v2/claims/text.ts',
    source: "[\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*(?:[-.,:/][\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*)*|[$€£]|\\S",
    why:
      'nested, but every repetition of an inner group starts with a character the element before it cannot match ' +
      "(an apostrophe, or one of - . , : /), so a run splits one way only, and nothing after the groups can fail: " +
      'the match ends where they stop',
  },
  {
    file: 'src/engine/graders/v2/claims/text.ts',
    source: '\\n\\s*\\n',
    why:
      'starts only at a line break; `\\s*` reads the whitespace after it, and when that whitespace holds another line ' +
      'break the first start matches it whole, so each run of whitespace is read once',
  },
  {
    file: 'src/engine/graders/v3/claims/text.ts', // a copy of version 2's (grader v3)
    source: "[\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*(?:[-.,:/][\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*)*|[$€£]|\\S",
    why:
      'nested, but every repetition of an inner group starts with a character the element before it cannot match ' +
      "(an apostrophe, or one of - . , : /), so a run splits one way only, and nothing after the groups can fail: " +
      'the match ends where they stop',
  },
  {
    file: 'src/engine/graders/v3/claims/text.ts', // a copy of version 2's (grader v3)
    source: '\\n\\s*\\n',
    why:
      'starts only at a line break; `\\s*` reads the whitespace after it, and when that whitespace holds another line ' +
      'break the first start matches it whole, so each run of whitespace is read once',
  },
  {
    file: 'src/engine/graders/v4/claims/text.ts', // a copy of version 3's (grader v4)
    source: "[\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*(?:[-.,:/][\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*)*|[$€£]|\\S",
    why:
      'nested, but every repetition of an inner group starts with a character the element before it cannot match ' +
      "(an apostrophe, or one of - . , : /), so a run splits one way only, and nothing after the groups can fail: " +
      'the match ends where they stop',
  },
  {
    file: 'src/engine/graders/v4/claims/text.ts', // a copy of version 3's (grader v4)
    source: '\\n\\s*\\n',
    why:
      'starts only at a line break; `\\s*` reads the whitespace after it, and when that whitespace holds another line ' +
      'break the first start matches it whole, so each run of whitespace is read once',
  },
  {
    file: 'src/engine/graders/v5/claims/text.ts', // a copy of version 4's (grader v5)
    source: "[\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*(?:[-.,:/][\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*)*|[$€£]|\\S",
    why:
      'nested, but every repetition of an inner group starts with a character the element before it cannot match ' +
      "(an apostrophe, or one of - . , : /), so a run splits one way only, and nothing after the groups can fail: " +
      'the match ends where they stop',
  },
  {
    file: 'src/engine/graders/v5/claims/text.ts', // a copy of version 4's (grader v5)
    source: '\\n\\s*\\n',
    why:
      'starts only at a line break; `\\s*` reads the whitespace after it, and when that whitespace holds another line ' +
      'break the first start matches it whole, so each run of whitespace is read once',
  },
  {
    file: 'src/engine/graders/v6/claims/text.ts', // a copy of version 5's (grader v6)
    source: "[\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*(?:[-.,:/][\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*)*|[$€£]|\\S",
    why:
      'nested, but every repetition of an inner group starts with a character the element before it cannot match ' +
      "(an apostrophe, or one of - . , : /), so a run splits one way only, and nothing after the groups can fail: " +
      'the match ends where they stop',
  },
  {
    file: 'src/engine/graders/v6/claims/text.ts', // a copy of version 5's (grader v6)
    source: '\\n\\s*\\n',
    why:
      'starts only at a line break; `\\s*` reads the whitespace after it, and when that whitespace holds another line ' +
      'break the first start matches it whole, so each run of whitespace is read once',
  },
  {
    file: 'src/engine/graders/v7/claims/text.ts', // a copy of version 6's (grader v7)
    source: "[\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*(?:[-.,:/][\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*)*|[$€£]|\\S",
    why:
      'nested, but every repetition of an inner group starts with a character the element before it cannot match ' +
      "(an apostrophe, or one of - . , : /), so a run splits one way only, and nothing after the groups can fail: " +
      'the match ends where they stop',
  },
  {
    file: 'src/engine/graders/v7/claims/text.ts', // a copy of version 6's (grader v7)
    source: '\\n\\s*\\n',
    why:
      'starts only at a line break; `\\s*` reads the whitespace after it, and when that whitespace holds another line ' +
      'break the first start matches it whole, so each run of whitespace is read once',
  },
  {
    file: 'src/engine/graders/v8/claims/text.ts', // a copy of version 7's (grader v8)
    source: "[\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*(?:[-.,:/][\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*)*|[$€£]|\\S",
    why:
      'nested, but every repetition of an inner group starts with a character the element before it cannot match ' +
      "(an apostrophe, or one of - . , : /), so a run splits one way only, and nothing after the groups can fail: " +
      'the match ends where they stop',
  },
  {
    file: 'src/engine/graders/v8/claims/text.ts', // a copy of version 7's (grader v8)
    source: '\\n\\s*\\n',
    why:
      'starts only at a line break; `\\s*` reads the whitespace after it, and when that whitespace holds another line ' +
      'break the first start matches it whole, so each run of whitespace is read once',
  },
  {
    file: 'src/engine/graders/v9/claims/text.ts', // a copy of version 8's (grader v9)
    source: "[\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*(?:[-.,:/][\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*)*|[$€£]|\\S",
    why:
      'nested, but every repetition of an inner group starts with a character the element before it cannot match ' +
      "(an apostrophe, or one of - . , : /), so a run splits one way only, and nothing after the groups can fail: " +
      'the match ends where they stop',
  },
  {
    file: 'src/engine/graders/v9/claims/text.ts', // a copy of version 8's (grader v9)
    source: '\\n\\s*\\n',
    why:
      'starts only at a line break; `\\s*` reads the whitespace after it, and when that whitespace holds another line ' +
      'break the first start matches it whole, so each run of whitespace is read once',
  },
  {
    file: 'src/families/shared/money.ts',
    source: '\\B(?=(\\d{3})+\\.)',
    why: 'groups the thousands of an amount the family generator drew (at most seven digits), never agent text',
  },
  {
    file: 'src/engine/graders/v10/claims/text.ts', // a copy of version 9's (grader v10)
    source: "[\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*(?:[-.,:/][\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*)*|[$€£]|\\S",
    why:
      'nested, but every repetition of an inner group starts with a character the element before it cannot match ' +
      "(an apostrophe, or one of - . , : /), so a run splits one way only, and nothing after the groups can fail: " +
      'the match ends where they stop',
  },
  {
    file: 'src/engine/graders/v10/claims/text.ts', // a copy of version 9's (grader v10)
    source: '\\n\\s*\\n',
    why:
      'starts only at a line break; `\\s*` reads the whitespace after it, and when that whitespace holds another line ' +
      'break the first start matches it whole, so each run of whitespace is read once',
  },
  {
    file: 'src/engine/graders/v11/claims/text.ts', // a copy of version 10's (grader v11)
    source: "[\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*(?:[-.,:/][\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*)*|[$€£]|\\S",
    why:
      'nested, but every repetition of an inner group starts with a character the element before it cannot match ' +
      "(an apostrophe, or one of - . , : /), so a run splits one way only, and nothing after the groups can fail: " +
      'the match ends where they stop',
  },
  {
    file: 'src/engine/graders/v11/claims/text.ts', // a copy of version 10's (grader v11)
    source: '\\n\\s*\\n',
    why:
      'starts only at a line break; `\\s*` reads the whitespace after it, and when that whitespace holds another line ' +
      'break the first start matches it whole, so each run of whitespace is read once',
  },
  {
    file: 'src/engine/graders/v12/claims/text.ts', // a copy of version 11's (grader v12)
    source: "[\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*(?:[-.,:/][\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*)*|[$€£]|\\S",
    why:
      'nested, but every repetition of an inner group starts with a character the element before it cannot match ' +
      "(an apostrophe, or one of - . , : /), so a run splits one way only, and nothing after the groups can fail: " +
      'the match ends where they stop',
  },
  {
    file: 'src/engine/graders/v12/claims/text.ts', // a copy of version 11's (grader v12)
    source: '\\n\\s*\\n',
    why:
      'starts only at a line break; `\\s*` reads the whitespace after it, and when that whitespace holds another line ' +
      'break the first start matches it whole, so each run of whitespace is read once',
  },
  {
    file: 'src/engine/graders/v13/claims/text.ts', // a copy of version 12's (grader v13)
    source: "[\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*(?:[-.,:/][\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*)*|[$€£]|\\S",
    why:
      'nested, but every repetition of an inner group starts with a character the element before it cannot match ' +
      "(an apostrophe, or one of - . , : /), so a run splits one way only, and nothing after the groups can fail: " +
      'the match ends where they stop',
  },
  {
    file: 'src/engine/graders/v13/claims/text.ts', // a copy of version 12's (grader v13)
    source: '\\n\\s*\\n',
    why:
      'starts only at a line break; `\\s*` reads the whitespace after it, and when that whitespace holds another line ' +
      'break the first start matches it whole, so each run of whitespace is read once',
  },
  {
    file: 'src/engine/graders/v14/claims/text.ts', // a copy of version 13's (grader v14)
    source: "[\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*(?:[-.,:/][\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*)*|[$€£]|\\S",
    why:
      'nested, but every repetition of an inner group starts with a character the element before it cannot match ' +
      "(an apostrophe, or one of - . , : /), so a run splits one way only, and nothing after the groups can fail: " +
      'the match ends where they stop',
  },
  {
    file: 'src/engine/graders/v14/claims/text.ts', // a copy of version 13's (grader v14)
    source: '\\n\\s*\\n',
    why:
      'starts only at a line break; `\\s*` reads the whitespace after it, and when that whitespace holds another line ' +
      'break the first start matches it whole, so each run of whitespace is read once',
  },
  {
    file: 'src/engine/graders/v15/claims/text.ts', // a copy of version 14's (grader v15)
    source: "[\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*(?:[-.,:/][\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*)*|[$€£]|\\S",
    why:
      'nested, but every repetition of an inner group starts with a character the element before it cannot match ' +
      "(an apostrophe, or one of - . , : /), so a run splits one way only, and nothing after the groups can fail: " +
      'the match ends where they stop',
  },
  {
    file: 'src/engine/graders/v15/claims/text.ts', // a copy of version 14's (grader v15)
    source: '\\n\\s*\\n',
    why:
      'starts only at a line break; `\\s*` reads the whitespace after it, and when that whitespace holds another line ' +
      'break the first start matches it whole, so each run of whitespace is read once',
  },
  {
    file: 'src/engine/graders/v16/claims/text.ts', // a copy of version 15's (grader v16)
    source: "[\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*(?:[-.,:/][\\p{L}\\p{N}_]+(?:'[\\p{L}]+)*)*|[$€£]|\\S",
    why:
      'nested, but every repetition of an inner group starts with a character the element before it cannot match ' +
      "(an apostrophe, or one of - . , : /), so a run splits one way only, and nothing after the groups can fail: " +
      'the match ends where they stop',
  },
  {
    file: 'src/engine/graders/v16/claims/text.ts', // a copy of version 15's (grader v16)
    source: '\\n\\s*\\n',
    why:
      'starts only at a line break; `\\s*` reads the whitespace after it, and when that whitespace holds another line ' +
      'break the first start matches it whole, so each run of whitespace is read once',
  },
  {
    file: 'src/families/security_compromised_account/messages.ts',
    source: '\\B(?=(\\d{3})+(?!\\d))',
    why: 'groups the thousands of a count the family generator drew (at most seven digits), never agent text',
  },
  {
    file: 'src/engine/graders/v1/reply-matching.ts',
    source: 'new RegExp(`(?<![\\\\p{L}\\\\p{N}])${escapeRegExp(key)}(?![\\\\p{L}\\\\p{N}]|[.,]\\\\p{N})`, \'u\')',
    why:
      "grader version 1's whole-phrase match: a task's phrase with every special character escaped between two " +
      'single-character lookarounds, so no quantifier at all; each start compares one phrase',
  },
];

interface Found {
  file: string;
  line: number;
  /** The pattern source, or the whole expression for a pattern built at run time. */
  source: string;
  flags: string;
  dynamic: boolean;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

function regexesIn(path: string): Found[] {
  const text = readFileSync(path, 'utf8');
  const file = relative(ROOT, path).split('\\').join('/');
  const source = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const out: Found[] = [];
  const lineOf = (node: ts.Node) => source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText();
      const end = literal.lastIndexOf('/');
      out.push({ file, line: lineOf(node), source: literal.slice(1, end), flags: literal.slice(end + 1), dynamic: false });
    }
    if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && node.expression.getText() === 'RegExp') {
      const [pattern, flags] = node.arguments ?? [];
      const literalFlags = flags && ts.isStringLiteralLike(flags) ? flags.text : '';
      if (pattern && ts.isStringLiteralLike(pattern)) out.push({ file, line: lineOf(node), source: pattern.text, flags: literalFlags, dynamic: false });
      else out.push({ file, line: lineOf(node), source: node.getText(), flags: literalFlags, dynamic: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/* A small parser for the regular expressions the engine writes: alternatives, groups, classes, escapes, quantifiers. */

type Node =
  | { kind: 'set'; source: string }
  | { kind: 'assertion'; source: string }
  | { kind: 'group'; lookaround: boolean; alternatives: Term[][] };

interface Term {
  node: Node;
  min: number;
  max: number;
}

function parse(source: string): Term[][] {
  let i = 0;
  const alternatives = (): Term[][] => {
    const out: Term[][] = [[]];
    while (i < source.length && source[i] !== ')') {
      if (source[i] === '|') {
        i++;
        out.push([]);
        continue;
      }
      const node = atom();
      out[out.length - 1].push({ node, ...quantifier(node) });
    }
    return out;
  };
  const atom = (): Node => {
    const c = source[i];
    if (c === '(') {
      i++;
      let lookaround = false;
      if (source.startsWith('?:', i)) i += 2;
      else if (/^\?<?[=!]/.test(source.slice(i, i + 3))) {
        lookaround = true;
        i += source[i + 1] === '<' ? 3 : 2;
      } else if (source.startsWith('?<', i)) i = source.indexOf('>', i) + 1;
      const inner = alternatives();
      i++; // ')'
      return { kind: 'group', lookaround, alternatives: inner };
    }
    if (c === '[') {
      const start = i++;
      if (source[i] === '^') i++;
      if (source[i] === ']') i++;
      while (source[i] !== ']') i += source[i] === '\\' ? 2 : 1;
      i++;
      return { kind: 'set', source: source.slice(start, i) };
    }
    if (c === '^' || c === '$') {
      i++;
      return { kind: 'assertion', source: c };
    }
    if (c === '\\') {
      const start = i;
      i += 2;
      const letter = source[i - 1];
      if (letter === 'b' || letter === 'B') return { kind: 'assertion', source: source.slice(start, i) };
      if ((letter === 'p' || letter === 'P') && source[i] === '{') i = source.indexOf('}', i) + 1;
      else if (letter === 'u' && source[i] === '{') i = source.indexOf('}', i) + 1;
      else if (letter === 'u') i += 4;
      else if (letter === 'x') i += 2;
      else if (/[1-9]/.test(letter)) return { kind: 'set', source: '[^]' }; // a backreference: anything
      return { kind: 'set', source: source.slice(start, i) };
    }
    i++;
    return { kind: 'set', source: c === '.' ? '.' : c.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&') };
  };
  const quantifier = (node: Node): { min: number; max: number } => {
    let bounds = { min: 1, max: 1 };
    const c = source[i];
    if (c === '*') bounds = { min: 0, max: Infinity };
    else if (c === '+') bounds = { min: 1, max: Infinity };
    else if (c === '?') bounds = { min: 0, max: 1 };
    else if (c === '{' && /^\{\d+(,\d*)?\}/.test(source.slice(i))) {
      const [, lo, comma, hi] = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i))!;
      i += source.slice(i).indexOf('}');
      bounds = { min: Number(lo), max: comma === undefined ? Number(lo) : hi === '' ? Infinity : Number(hi) };
    } else return bounds;
    i++;
    if (source[i] === '?') i++; // lazy: the same ways to split a run, tried in another order
    if (node.kind === 'assertion') return { min: 1, max: 1 };
    return bounds;
  };
  const out = alternatives();
  if (i !== source.length) throw new Error(`cannot parse /${source}/ at ${i}`);
  return out;
}

/** Characters that stand for the classes the engine's patterns use (letters, digits, spaces, marks, other scripts). */
const SAMPLE = [
  ...'aehimnoprstyzAEHMSZ_0159 \t\n\r\u000b\f\u00a0\u2028\u2029\u3000\ufeff.,:;-/\'"()[]{}|$€£!?#*`+=&%@~<>\\^',
  'é', 'ß', 'İ', 'ヘ', 'ア', '中', 'α', 'Я', '١', '²', '½', '😀', '\u200b',
];

class Checker {
  constructor(private readonly flags: string) {}

  /** The sample characters one element can match. */
  setOf(node: Node): Set<string> {
    if (node.kind === 'assertion') return new Set();
    if (node.kind === 'group') return node.lookaround ? new Set() : this.anyOf(node.alternatives);
    const single = new RegExp(`^(?:${node.source})$`, this.flags.replace(/[gmy]/g, ''));
    return new Set(SAMPLE.filter((c) => single.test(c)));
  }

  /** Every sample character any element inside can match. */
  anyOf(alternatives: Term[][]): Set<string> {
    const out = new Set<string>();
    for (const sequence of alternatives) for (const term of sequence) for (const c of this.setOf(term.node)) out.add(c);
    return out;
  }

  nullable(term: Term): boolean {
    if (term.min === 0 || term.node.kind === 'assertion') return true;
    if (term.node.kind === 'group') return term.node.lookaround || term.node.alternatives.some((sequence) => sequence.every((t) => this.nullable(t)));
    return false;
  }

  /** The characters a match of the sequence from `from` on can start with, and whether it can match nothing. */
  first(sequence: Term[], from = 0): { chars: Set<string>; empty: boolean } {
    const chars = new Set<string>();
    for (let k = from; k < sequence.length; k++) {
      const term = sequence[k];
      const starts = term.node.kind === 'group' && !term.node.lookaround ? this.firstOfAlternatives(term.node.alternatives).chars : this.setOf(term.node);
      for (const c of starts) chars.add(c);
      if (!this.nullable(term)) return { chars, empty: false };
    }
    return { chars, empty: true };
  }

  firstOfAlternatives(alternatives: Term[][]): { chars: Set<string>; empty: boolean } {
    const chars = new Set<string>();
    let empty = false;
    for (const sequence of alternatives) {
      const f = this.first(sequence);
      for (const c of f.chars) chars.add(c);
      empty ||= f.empty;
    }
    return { chars, empty };
  }

  /** The shapes that backtrack, found anywhere in the pattern. */
  problems(alternatives: Term[][], anchored: boolean, starts: { chars: Set<string>; empty: boolean }): string[] {
    const out: string[] = [];
    for (const sequence of alternatives) {
      sequence.forEach((term, k) => {
        const repeated = term.max === Infinity;
        if (term.node.kind === 'group') {
          if (repeated && this.hasRepeated(term.node.alternatives)) out.push('nested');
          out.push(...this.problems(term.node.alternatives, anchored && !term.node.lookaround, starts));
        }
        if (!repeated) return;
        const own = term.node.kind === 'group' ? this.anyOf(term.node.alternatives) : this.setOf(term.node);
        // Adjacent: the next repeated elements reachable past optional ones.
        for (let j = k + 1; j < sequence.length; j++) {
          const next = sequence[j];
          if (next.max === Infinity && overlap(own, this.first([next]).chars)) out.push('adjacent');
          if (!this.nullable(next)) break;
        }
        // Rescanned: a start can fall inside the run, and something after the run can fail.
        const canFail = sequence.slice(k + 1).some((t) => !this.nullable(t) || t.node.kind === 'assertion' || (t.node.kind === 'group' && t.node.lookaround));
        if (!anchored && canFail && (starts.empty || overlap(own, starts.chars))) out.push('rescanned');
      });
    }
    return out;
  }

  private hasRepeated(alternatives: Term[][]): boolean {
    return alternatives.some((sequence) => sequence.some((t) => t.max === Infinity || (t.node.kind === 'group' && this.hasRepeated(t.node.alternatives))));
  }
}

function overlap(a: Set<string>, b: Set<string>): boolean {
  for (const c of a) if (b.has(c)) return true;
  return false;
}

/** The backtracking shapes of one pattern (empty: none found). */
export function backtrackingShapes(source: string, flags: string): string[] {
  const alternatives = parse(source);
  const checker = new Checker(flags);
  const anchored = flags.includes('y') || alternatives.every((sequence) => sequence[0]?.node.kind === 'assertion' && sequence[0].node.source === '^');
  return [...new Set(checker.problems(alternatives, anchored, checker.firstOfAlternatives(alternatives)))];
}

// The families' generators are engine code too (src/families: kit, shared pools, each family); their reference
// solvers are tools kept beside them (they read observations, never agent text), and are left out.
const found = [...sourceFiles(ENGINE), ...sourceFiles(join(ROOT, 'src', 'families')).filter((path) => !path.endsWith('solver.ts'))].flatMap(regexesIn);

describe('regular expressions in src/engine and src/families', () => {
  it('finds the patterns (the scan itself works)', () => {
    expect(found.length).toBeGreaterThan(100);
    expect(found.some((f) => f.file === 'src/engine/graders/v2/claims/text.ts' && f.source.startsWith('[\\p{L}\\p{N}_]+'))).toBe(true);
  });

  it('flags the shapes that backtrack, including the ones that stalled grading', () => {
    // What splitSentences, cleanText and introducesPolicy matched with before they read the text once.
    expect(backtrackingShapes('[\\p{L}\\p{N}.]+$', 'u')).toEqual(['rescanned']);
    expect(backtrackingShapes('[.!?]+["\')\\]]*(?=\\s)', 'g')).toEqual(['rescanned']);
    expect(backtrackingShapes('^[ \\t]*\\|?[ \\t:|-]*-{3,}[ \\t:|-]*\\|?[ \\t]*$', 'gm')).toContain('adjacent');
    expect(backtrackingShapes('\\b(here is|this is) (our|the) policy\\b.*:\\s*$', 'i')).toEqual(['rescanned']);
    expect(backtrackingShapes('(x+)+y', '')).toContain('nested');
    expect(backtrackingShapes('(a|aa)*b', '')).toEqual(['rescanned']);
    expect(backtrackingShapes('\\s*\\s*$', '')).toContain('adjacent');
    // And lets through what cannot backtrack.
    expect(backtrackingShapes('^[a-z]+ed$', '')).toEqual([]);
    expect(backtrackingShapes('[ \\t\\u00a0]+', 'g')).toEqual([]);
    expect(backtrackingShapes('\\b[A-Z]{2,5}-\\d{3,}\\b', 'g')).toEqual([]);
    expect(backtrackingShapes('\\s+[a-z]', 'y')).toEqual([]);
    expect(backtrackingShapes('^\\d{1,3}(,\\d{3})+(\\.\\d+)?$', '')).toEqual([]);
  });

  it('has no pattern that backtracks on what it reads, except the reviewed ones', () => {
    const flagged = found
      .map((f) => ({ ...f, shapes: f.dynamic ? ['built at run time'] : backtrackingShapes(f.source, f.flags) }))
      .filter((f) => f.shapes.length > 0)
      .filter((f) => !REVIEWED.some((r) => r.file === f.file && r.source === f.source))
      .map((f) => `${f.file}:${f.line} /${f.source}/${f.flags}: ${f.shapes.join(', ')}`);
    expect(flagged).toEqual([]);
  });

  it('reviews only patterns that still exist, each with a reason', () => {
    for (const r of REVIEWED) {
      expect(r.why.length).toBeGreaterThan(40);
      expect(found.some((f) => f.file === r.file && f.source === r.source)).toBe(true);
    }
  });
});
