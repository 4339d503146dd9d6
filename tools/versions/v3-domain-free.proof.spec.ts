import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as ts from 'typescript';
import { PROJECT_ROOT } from '../../src/common/project-root';
import { families } from '../../src/families';
import type { Task } from '../../src/engine/task.schema';
import { ENGLISH_FUNCTION_WORDS } from '../../src/engine/graders/v3/claims/english';

/*
 * Grader version 3 knows no domain (issue 22): every word a family's content needs reaches it through the task
 * (answer_key.lexicon, the claims' declarations), and the concepts all support work shares through
 * support-vocabulary.ts. This spec reads the words in v3's code (string, template and regex literals) and fails on
 * any word of the families' domains: a fixed list of their objects and brands, and the words each family declares
 * in its instances (claims, forbidden statements, lexicon) and the proper nouns of its tickets and articles.
 */

const V3 = join(PROJECT_ROOT, 'src', 'engine', 'graders', 'v3');
/** The shared vocabulary may hold support-work concepts a family also declares ("refund", "card"), never a family's own. */
const SHARED_VOCABULARY = 'support-vocabulary.ts';

/**
 * Brands, the tenant, and the objects and actors of one family's content (v3-inventory.md §1.1): in no literal of
 * version 3, the shared vocabulary included.
 */
const FAMILY_WORDS = [
  'visa', 'mastercard', 'amex', 'discover', 'northwind', 'parcel', 'parcels', 'shipment', 'shipments', 'kit', 'kits', 'badge', 'badges',
  'lanyard', 'lanyards', 'courier', 'couriers', 'carrier', 'carriers', 'consignment', 'replacement', 'replacements', 'attacker',
  'attackers', 'hacker', 'hackers', 'intruder', 'intruders', 'identity', 'venue', "venue's", 'dock', 'loading', 'gate', 'trace',
  'overnight', 'ground', 'express', 'api', 'session', 'sessions',
];

/**
 * Acts the families' policies are about that are support-work concepts too: only the shared vocabulary may name
 * them; the claim engine gets them from there or from the task.
 */
const CONCEPT_WORDS = ['refund', 'refunded', 'ship', 'ships', 'shipped', 'dispatch', 'dispatched', 'lock', 'locked', 'revoke', 'revoked', 'transfer', 'credit', 'credited'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') ? [join(dir, e.name)] : [],
  );
}

/** Every literal of a source file with the words in it (regexes read for their letter runs). */
function literalWords(file: string): { word: string; line: number; text: string }[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: { word: string; line: number; text: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteralLike(node) || ts.isRegularExpressionLiteral(node) || ts.isTemplateHead(node) || ts.isTemplateMiddle(node) || ts.isTemplateTail(node)) {
      const text = node.getText(source);
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      for (const word of text.toLowerCase().match(/[a-z][a-z'-]*[a-z]|[a-z]/g) ?? []) out.push({ word, line, text });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

/**
 * The words a family's instances name the things of their domain with: the objects of action claims and forbidden
 * requests, the options, the lexicon, and the proper nouns of the tickets and articles (brands, carriers,
 * companies). Verbs and event words are left out: they are support-work concepts as often as not ("verify", "call").
 */
function declaredWords(task: Task): Set<string> {
  const words = new Set<string>();
  const add = (text: string) => {
    for (const w of text.toLowerCase().match(/[a-z][a-z'-]*[a-z]/g) ?? []) words.add(w);
  };
  const key = task.answer_key;
  for (const claim of [...(key.reply_claims ?? []), ...(key.forbidden ?? [])]) {
    if ('objects' in claim) claim.objects.forEach(add);
    if (claim.kind === 'option') for (const phrases of Object.values(claim.options)) phrases.forEach(add);
  }
  for (const list of Object.values(key.lexicon ?? {})) if (Array.isArray(list)) list.forEach(add);
  // Proper nouns: a capitalised word that does not open a sentence.
  const texts = [...task.inbox.flatMap((t) => [t.subject, t.body]), ...task.knowledge_base.flatMap((a) => [a.title, a.body])];
  for (const text of texts) for (const m of text.matchAll(/(?<![.!?:]\s|^)\b([A-Z][a-z]{2,})\b/g)) words.add(m[1].toLowerCase());
  return words;
}

const files = sourceFiles(V3);

/** The words only this family's instances declare or name: a word another family's content uses too is no domain's ("day", "account"). */
function familyOnlyWords(id: string): Set<string> {
  const instances = (familyId: string) => SEEDS.map((seed) => families().find((f) => f.id === familyId)!.generate(seed));
  const words = new Set<string>();
  for (const task of instances(id)) for (const w of declaredWords(task)) words.add(w);
  for (const other of families().filter((f) => f.id !== id)) {
    for (const task of instances(other.id)) for (const w of JSON.stringify(task).toLowerCase().match(/[a-z][a-z'-]*[a-z]/g) ?? []) words.delete(w);
  }
  for (const w of [...ENGLISH_FUNCTION_WORDS, ...CALENDAR_WORDS]) words.delete(w);
  return words;
}

function literalHits(sources: string[], words: Set<string>): string[] {
  return sources.flatMap((file) => literalWords(file).filter((w) => words.has(w.word)).map((w) => `${relative(PROJECT_ROOT, file)}:${w.line} ${w.word} in ${w.text}`));
}
/** Brands and the tenant: not even in a comment of version 3 (an example there is read as a rule to keep). */
const NAMES = ['visa', 'mastercard', 'amex', 'discover', 'northwind'];
const SEEDS = [0, 1, 2, 3, 4];
/** English the date reader must know, whichever family's instances happen to name them. */
const CALENDAR_WORDS = [
  'january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december',
  'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday',
];

describe('grader version 3 knows no domain', () => {
  it("no literal in its code holds a word of the families' fixed domain list", () => {
    const denied = new Set(FAMILY_WORDS);
    const hits = files.flatMap((file) =>
      literalWords(file).filter((w) => denied.has(w.word)).map((w) => `${relative(PROJECT_ROOT, file)}:${w.line} ${w.word} in ${w.text}`),
    );
    expect(hits).toEqual([]);
  });

  it('no source of it, comments included, names a brand or the tenant', () => {
    const hits = files.flatMap((file) =>
      readFileSync(file, 'utf8').split('\n').flatMap((line, k) => (NAMES.some((n) => new RegExp(`\\b${n}\\b`, 'i').test(line)) ? [`${relative(PROJECT_ROOT, file)}:${k + 1}`] : [])),
    );
    expect(hits).toEqual([]);
  });

  it('the scans find version 2\'s domain words in version 2 (the check can fail)', () => {
    const v2 = sourceFiles(join(PROJECT_ROOT, 'src', 'engine', 'graders', 'v2'));
    const found = new Set(v2.flatMap((file) => literalWords(file).map((w) => w.word)).filter((w) => FAMILY_WORDS.includes(w)));
    expect([...found].sort()).toEqual(expect.arrayContaining(['amex', 'attacker', 'badge', 'identity', 'kit', 'mastercard', 'parcel', 'visa']));
    // Version 2 holds security's "identity" and "active" (v3-inventory.md §1.1).
    expect(families().flatMap((f) => literalHits(v2, familyOnlyWords(f.id))).length).toBeGreaterThan(0);
  });

  it('no literal outside the shared vocabulary names a support act a family policy is about', () => {
    const denied = new Set(CONCEPT_WORDS);
    const hits = files
      .filter((file) => !file.endsWith(SHARED_VOCABULARY))
      .flatMap((file) => literalWords(file).filter((w) => denied.has(w.word)).map((w) => `${relative(PROJECT_ROOT, file)}:${w.line} ${w.word} in ${w.text}`));
    expect(hits).toEqual([]);
  });

  it.each(families().map((f) => [f.id] as const))("no literal outside the shared vocabulary holds a word only %s's instances declare or name", (id) => {
    const words = familyOnlyWords(id);
    expect(words.size).toBeGreaterThan(10);
    expect(literalHits(files.filter((file) => !file.endsWith(SHARED_VOCABULARY)), words)).toEqual([]);
  });
});
