/**
 * Text clean-up and tokens. Every later step works on the same lowercase tokens, so a rule is written once
 * against words, not against the many ways a writer can type the same characters.
 */

/** Unicode forms, dash and quote variants and Markdown emphasis differ between writers, not in meaning. */
export function cleanText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/\*\*|__|`/g, '')
    .replace(/\r\n?/g, '\n')
    // Markdown tables: "| Courier | Overnight priority |" reads "Courier: Overnight priority"; rules go.
    .replace(/^[ \t]*\|?[ \t:|-]*-{3,}[ \t:|-]*\|?[ \t]*$/gm, '')
    .replace(/^[ \t]*\|([^|\n]+)\|([^|\n]+)\|[ \t]*$/gm, (_row, label: string, value: string) => (label.trim() ? `${label.trim()}: ${value.trim()}` : value.trim()))
    // Markdown headings: "### When you'll have it" is the line "When you'll have it".
    .replace(/^[ \t]*#{1,6}[ \t]+/gm, '')
    .replace(/[ \t\u00a0]+/g, ' ');
}

/**
 * One token per word, number or mark. Inner hyphens, dots, commas, colons and slashes stay inside a token when
 * letters or digits follow directly, so "5-7", "sync-prod-2", "27/11", "12:00", "348.00" and "3,000" are one
 * token each, while a sentence's full stop is its own. Underscores stay
 * inside words, so an internal code such as security_escalation is one token.
 */
const TOKEN = /[\p{L}\p{N}_]+(?:'[\p{L}]+)*(?:[-.,:/][\p{L}\p{N}_]+(?:'[\p{L}]+)*)*|[$€£]|\S/gu;

export function tokenize(text: string): string[] {
  return text.toLowerCase().match(TOKEN) ?? [];
}

export function isWord(token: string): boolean {
  return /[\p{L}\p{N}]/u.test(token);
}

/** Abbreviations whose full stop does not end a sentence. */
const ABBREVIATIONS = new Set([
  'incl', 'e.g', 'i.e', 'etc', 'approx', 'vs', 'mr', 'ms', 'mrs', 'dr', 'st', 'no', 'nr', 'ref', 'dept', 'jan', 'feb',
  'mar', 'apr', 'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'mon', 'tue', 'tues', 'wed', 'thu', 'thur',
  'thurs', 'fri', 'sat', 'sun', 'cf', 'p.s', 'a.m', 'p.m',
]);

export interface RawSentence {
  text: string;
  paragraph: number;
  /** The sentence is a whole line that began with a bullet or list number. */
  bullet: boolean;
}

/**
 * Paragraphs (blank lines), lines, then sentences: a line break always ends a sentence, because replies put
 * greetings, list items and label lines on lines of their own; a full stop, "!" or "?" followed by a space ends
 * one unless it closes an abbreviation or a number such as "27.11.".
 */
export function splitSentences(text: string): RawSentence[] {
  const out: RawSentence[] = [];
  const paragraphs = text.split(/\n\s*\n/);
  paragraphs.forEach((paragraph, p) => {
    for (const rawLine of paragraph.split('\n')) {
      const bulletMark = /^([-*•]|\d{1,2}[.)])\s+/;
      const bullet = bulletMark.test(rawLine.trim());
      const line = rawLine.trim().replace(bulletMark, '');
      if (!line) continue;
      let start = 0;
      const boundary = /[.!?]+["')\]]*(?=\s)/g;
      let m: RegExpExecArray | null;
      while ((m = boundary.exec(line))) {
        const before = line.slice(start, m.index);
        const lastWord = (before.match(/[\p{L}\p{N}.]+$/u)?.[0] ?? '').toLowerCase();
        if (m[0] === '.' && (ABBREVIATIONS.has(lastWord) || /^\d{1,2}(\.\d{1,2})?$/.test(lastWord) && /^\s+[a-z]/.test(line.slice(m.index + 1)))) continue;
        const end = m.index + m[0].length;
        push(line.slice(start, end));
        start = end;
      }
      push(line.slice(start));
      function push(s: string): void {
        const trimmed = s.trim();
        if (trimmed) out.push({ text: trimmed, paragraph: p, bullet });
      }
    }
  });
  return out;
}
