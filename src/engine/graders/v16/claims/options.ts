import type { AnalysedSentence } from './analyse';
import type { OptionClaim } from './claim.schema';
import { isEnglishFunctionWord } from './english';
import { tokenize } from './text';

/**
 * One value from a named set ("overnight" of overnight / standard ground / express). Every phrase of every
 * option is looked for; at each position the longest phrase wins, so "overnight priority courier" is one
 * mention, not three. The declared value's phrases are matches, the other options' phrases are rivals.
 */

export interface OptionHit {
  sentence: number;
  start: number;
  end: number;
  option: string;
  /** A verb of sending stands just before it ("they're going overnight priority", "shipping express"). */
  sent?: boolean;
}

const compiled = new Map<string, { option: string; words: string[] }[]>();

/**
 * (Found first by the options object itself: a task's claims live as long as the task, and serialising the options to
 * find them by content, as every reply's every sentence asked, cost more than reading the sentence. The content key
 * still shares one list between equal claims of different task objects.)
 */
const compiledByObject = new WeakMap<object, { option: string; words: string[] }[]>();
const leadsByObject = new WeakMap<object, Map<string, string>>();

function phrasesOf(claim: OptionClaim): { option: string; words: string[] }[] {
  const known = compiledByObject.get(claim.options);
  if (known) return known;
  const key = JSON.stringify(claim.options);
  let list = compiled.get(key);
  if (!list) {
    list = Object.entries(claim.options)
      .flatMap(([option, phrases]) => phrases.map((p) => ({ option, words: tokenize(p) })))
      .sort((a, b) => b.words.length - a.words.length);
    if (compiled.size >= 256) compiled.clear();
    compiled.set(key, list);
  }
  compiledByObject.set(claim.options, list);
  return list;
}

function wordsAt(tokens: string[], i: number, words: string[]): boolean {
  for (let k = 0; k < words.length; k++) if (tokens[i + k] !== words[k]) return false;
  return true;
}

/** Verbs of sending after which an option's first word alone names it: "shipping express today", "sent standard". */
// ("the replacement is booked on express": booking on a service is sending by it.)
const SENDING = new Set(['ship', 'ships', 'shipping', 'shipped', 'send', 'sent', 'sending', 'going', 'goes', 'gone', 'went', 'go', 'heading', 'headed', 'coming', 'dispatched', 'dispatching', 'travelling', 'traveling', 'booked', 'booking']);

/** Words that may stand between a verb of sending and the service: "booked on express", "going out to you express". */
const BETWEEN_SENDING = new Set(['on', 'by', 'via', 'out', 'off', 'to', 'you', 'them', 'it']);

/** Labels whose value is how a thing is sent: "- Courier: express". */
const SERVICE_LABELS = new Set(['courier', 'service', 'shipping', 'method', 'carrier', 'via', 'by', 'shipped', 'sent']);

/** The first word of each option's phrases, where no other option's phrase begins with it ("express" of "express courier"). */
const leadsOf = new Map<string, Map<string, string>>();

function leadWords(claim: OptionClaim): Map<string, string> {
  const known = leadsByObject.get(claim.options);
  if (known) return known;
  const key = JSON.stringify(claim.options);
  let leads = leadsOf.get(key);
  if (!leads) {
    const owners = new Map<string, Set<string>>();
    for (const { option, words } of phrasesOf(claim)) {
      // (Content words only: "a" of "a trace", "by" of "by express" name nothing alone.)
      if (!/^[a-z]{4,}$/.test(words[0]) || isEnglishFunctionWord(words[0])) continue;
      let set = owners.get(words[0]);
      if (!set) owners.set(words[0], (set = new Set()));
      set.add(option);
    }
    leads = new Map([...owners].filter(([, set]) => set.size === 1).map(([word, set]) => [word, [...set][0]]));
    if (leadsOf.size >= 256) leadsOf.clear();
    leadsOf.set(key, leads);
  }
  leadsByObject.set(claim.options, leads);
  return leads;
}

export function findOptions(claim: OptionClaim, sentences: AnalysedSentence[]): OptionHit[] {
  const phrases = phrasesOf(claim);
  const leads = leadWords(claim);
  const hits: OptionHit[] = [];
  sentences.forEach((s, si) => {
    const t = s.tokens;
    for (let i = 0; i < t.length; i++) {
      // ("booked on express", "sent by express": a preposition between the verb and the service too.)
      // ("going out to you express": a particle and its object between too, three words at most.)
      let back = i - 1;
      while (back >= i - 3 && back >= 0 && BETWEEN_SENDING.has(t[back])) back--;
      const sent = SENDING.has(t[back] ?? '');
      let found = false;
      for (const p of phrases) {
        if (t[i] === p.words[0] && wordsAt(t, i, p.words)) {
          hits.push({ sentence: si, start: i, end: i + p.words.length, option: p.option, sent });
          i += p.words.length - 1;
          found = true;
          break;
        }
      }
      // ("SO-78674 replaced at no charge, shipping express today": the option's own first word, after a verb of sending.)
      const lead = found ? undefined : leads.get(t[i]);
      // ("- Courier: express": the same word as a label's whole value.)
      const labelled = t[i - 1] === ':' && SERVICE_LABELS.has(t[i - 2] ?? '') && (i + 1 >= t.length || /^[.;,(]$/.test(t[i + 1]));
      if (lead !== undefined && (sent || labelled)) hits.push({ sentence: si, start: i, end: i + 1, option: lead, sent });
    }
  });
  return hits;
}
