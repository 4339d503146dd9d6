/**
 * Clauses inside a sentence. A negation or a modal reaches to the edge of its clause and no further, so "We
 * have refunded $348; you don't need to do anything" keeps the refund positive. Edges are hard marks (";", ":",
 * brackets, a free-standing dash or "+"), and a comma, "and", "but" or "or" that opens a new subject ("..., so
 * there is", "... and it will not"), or a subordinator that opens a finite clause ("until we verify", "before
 * access is restored").
 */

const HARD = new Set([';', ':', '(', ')', '[', ']', '-', '+', '"', '.', '!', '?', '/']);
// ("every single attempt was stopped and nobody got in": "nobody" opens a clause of its own, its denial kept in it.)
const PRONOUNS = new Set(['we', 'i', 'you', 'it', 'they', 'there', 'this', 'that', 'he', 'she', 'these', 'those', 'nothing', 'none', 'everything', 'nobody']);
const AUX = new Set(['is', 'are', 'was', 'were', 'has', 'have', 'had', 'will', 'would', 'can', 'could', 'should', 'may', 'might', 'do', 'does', 'did', 'cannot', 'must']);
const COMMA_STARTERS = new Set([
  'and', 'but', 'so', 'which', 'because', 'while', 'although', 'though', 'whereas', 'yet', 'or', 'then', 'as', 'since',
  'if', 'unless', 'once', 'when', 'until', 'meaning', 'please', 'just', 'instead', 'otherwise', 'however',
  'whether', 'where', 'who', 'giving', 'leaving', 'though', 'thus', 'hence',
]);
/** What follows a transitive verb opening a predicate: "locked the account", "signed out all sessions". */
const DETERMINERS_AFTER_VERB = new Set(['the', 'a', 'an', 'your', 'all', 'every', 'each', 'its', 'our', 'out', 'off', 'down', 'up', 'it', 'them']);
/** Auxiliaries that carry a main clause's verb after a relative clause ("has been revoked", "is locked"). */
const MAIN_AUX = new Set(['has', 'have', 'is', 'are', 'was', 'were']);
/** Subordinators that, opening a sentence, open a clause the main one follows. */
const FRONTED = new Set(['if', 'unless', 'as', 'since', 'because', 'although', 'though', 'while', 'whereas', 'so', 'when', 'once', 'should', 'where', 'whenever']);
/** Of those, the ones that open a reason, after which the main clause may open with a denial. */
const REASONS = new Set(['since', 'because', 'as', 'so', 'although', 'though', 'while', 'whereas']);
/** Of those, the ones that are subordinators only before a subject ("so you're not out of pocket", not "so, to recap"). */
const NEEDS_SUBJECT = new Set(['as', 'so', 'should', 'when', 'once', 'where']);
/** Subjects of a fronted condition that are no pronoun: "Should any of them not be yours", "Where a session isn't yours". */
const CONDITION_SUBJECTS = new Set(['any', 'one', 'either', 'a', 'the', 'your', 'some', 'anything', 'anyone', 'someone']);

/** "it'll", "we've", "we will": a subject with its verb, which opens a main clause after a fronted one with no comma. */
function opensMainClause(tokens: string[], i: number, reason = false): boolean {
  const t = tokens[i];
  if (/^(it|we|you|they|i)'(ll|ve|d)$/.test(t)) return true;
  // ("since MFA stopped the attempt you don't need to change…": after a reason, a subject with a denied auxiliary; "if
  // you see one you don't recognise" is still the condition.)
  if (reason && ['you', 'we', 'i', 'it', 'they'].includes(t) && /n't$/.test(tokens[i + 1] ?? '') && !['that', 'which', 'who', 'and', 'or'].includes(tokens[i - 1] ?? '')) return true;
  // ("…if the Berlin one isn't familiar you can sign it out": the customer as the main clause's subject, with a modal.)
  if (t === 'you' && ['can', 'could', 'should', 'may', 'will', 'must'].includes(tokens[i + 1] ?? '') && !['that', 'which', 'who', 'and', 'or', 'if', 'unless', 'when', 'once'].includes(tokens[i - 1] ?? '')) return true;
  return (t === 'we' || t === 'it' || t === 'i' || t === 'they') && ['will', 'would', 'can', 'have', 'has', 'shall'].includes(tokens[i + 1] ?? '') && !['that', 'which', 'who', 'and', 'or'].includes(tokens[i - 1] ?? '');
}

const PREPOSITIONS_BEFORE_WHICH = new Set(['after', 'at', 'in', 'by', 'from', 'before', 'until', 'for', 'of', 'on']);
const SUBORDINATORS = new Set(['before', 'after', 'until', 'once', 'when', 'because', 'since', 'unless', 'if', 'whether', 'while', 'although', 'though', 'whereas', 'so']);

function opensSubject(tokens: string[], i: number): boolean {
  const t = tokens[i];
  if (t === undefined) return false;
  return PRONOUNS.has(t) || AUX.has(t) || /^(we|you|i|it|they|there|that|he|she)'/.test(t) || /n't$/.test(t);
}

/** Whether a finite verb follows within three tokens: "before access is restored", "until we verify". */
function finiteSoon(tokens: string[], i: number): boolean {
  for (let k = i; k < Math.min(tokens.length, i + 4); k++) if (opensSubject(tokens, k)) return true;
  return false;
}

/** Subjects after an inverted "should": "should it not appear", "should you need". */
const INVERTED_SUBJECTS = new Set(['it', 'you', 'they', 'this', 'that', 'there', 'the', 'your', 'any']);

/** Clause number of each token; boundary marks belong to no clause's content but get the next number. */
export function clauseIds(tokens: string[]): number[] {
  const ids: number[] = new Array(tokens.length);
  let id = 0;
  /** Where an open relative clause ("that you didn't create") began, or -1. */
  let relativeFrom = -1;
  /** The clause of the last negation so far ("no", "not", "skipped", "...n't"), or -1. */
  let negatedClause = -1;
  /** Where a fronted subordinate clause ("If it is not in your inbox, …", "As there are no weekend deliveries …") began, or -1. */
  let frontedFrom = -1;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    // A fronted subordinate clause ends at its comma, or where the main clause's own subject and verb begin when it
    // has none ("as there are no weekend deliveries it'll reach you on Monday"): its negation stays inside it.
    if (frontedFrom >= 0 && (t === ',' || (i >= frontedFrom + 3 && opensMainClause(tokens, i, REASONS.has(tokens[frontedFrom]))))) {
      frontedFrom = -1;
      id++;
      ids[i] = id;
      continue;
    }
    // (Fronted in its sentence, or after "but", "and" or a comma: "We caught the cut-off, but as there are no…".)
    // ("As your awards evening isn't until the 28th, standard ground gets them to you": opening the sentence, "as" before
    // a determined noun is a reason too.)
    // (Not where the first comma opens an aside: "As the kits are needed today and no courier, including our overnight
    // service, can deliver…".)
    const firstComma = i === 0 ? tokens.indexOf(',') : -1;
    const reasonWithNoun =
      t === 'as' && i === 0 && ['your', 'the', 'our', 'this', 'their'].includes(tokens[i + 1] ?? '') && firstComma > 0 &&
      !/ing$/.test(tokens[firstComma + 1] ?? '') && !['such', 'like', 'even', 'and', 'or', 'but', 'especially'].includes(tokens[firstComma + 1] ?? '');
    if (FRONTED.has(t) && (i === 0 || HARD.has(tokens[i - 1]) || ['but', 'and', ','].includes(tokens[i - 1]) || (t === 'if' && tokens[i - 1] === 'so')) && (!NEEDS_SUBJECT.has(t) || opensSubject(tokens, i + 1) || reasonWithNoun || ((t === 'should' || t === 'where') && CONDITION_SUBJECTS.has(tokens[i + 1] ?? '')))) frontedFrom = i;
    // "The key that you didn't create has been revoked": the main clause's auxiliary ends the relative one.
    if (relativeFrom >= 0 && i >= relativeFrom + 3 && MAIN_AUX.has(t) && !AUX.has(tokens[i - 1]) && !/n't$/.test(tokens[i - 1])) {
      relativeFrom = -1;
      id++;
      ids[i] = id;
      continue;
    }
    if (HARD.has(t)) {
      relativeFrom = -1;
      // ("if the Berlin one (or any other) isn't yours, sign it out": an aside inside a fronted clause does not end it.)
      if (t !== '(' && t !== ')') frontedFrom = -1;
      id++;
      ids[i] = id;
      continue;
    }
    const afterComma = tokens[i + 1];
    const timeWord = afterComma === 'before' || afterComma === 'after';
    // ", locked the account and signed out...": a comma before a past-tense verb opens a new coordinated predicate.
    // (Each test below only where its word is: they are read for every token of every sentence.)
    const newPredicate = t === ',' && /^[a-z]+ed$/.test(afterComma ?? '') && DETERMINERS_AFTER_VERB.has(tokens[i + 2] ?? '');
    // ", after which a new link would be needed", ", at which point…": a relative clause of its own.
    const relativeAfterComma = t === ',' && tokens[i + 2] === 'which' && PREPOSITIONS_BEFORE_WHICH.has(afterComma ?? '');
    // (", no second refund will be made": a negated subject opens a clause of its own.)
    const negatedSubject = t === ',' && (afterComma === 'no' || afterComma === 'nothing' || afterComma === 'none');
    if (t === ',' && (COMMA_STARTERS.has(afterComma) || opensSubject(tokens, i + 1) || newPredicate || relativeAfterComma || negatedSubject || (timeWord && finiteSoon(tokens, i + 2)))) {
      id++;
      ids[i] = id;
      continue;
    }
    // "has been cancelled and no longer works": a negated predicate of its own, which does not reach back.
    const coordinator = t === 'and' || t === 'but' || t === 'or';
    const negatedPredicate = coordinator && (/^(no|not|never|cannot)$/.test(tokens[i + 1] ?? '') || /n't$/.test(tokens[i + 1] ?? ''));
    // "skipped the usual trace and dispatched a replacement": a new predicate of its own.
    // (Only past a negation, which must not reach it; under a hedge the whole report stays hedged.)
    const pastPredicate =
      t === 'and' && negatedClause === id && /^[a-z]+ed$/.test(tokens[i + 1] ?? '') && DETERMINERS_AFTER_VERB.has(tokens[i + 2] ?? '');
    if (coordinator && (opensSubject(tokens, i + 1) || negatedPredicate || pastPredicate) && tokens[i - 1] !== ',') id++;
    else if ((t === 'that' || t === 'which' || t === 'who') && i > 0 && PRONOUNS.has(tokens[i + 1] ?? '') && tokens[i + 1] !== 'that') {
      id++;
      relativeFrom = i;
    }
    else if (SUBORDINATORS.has(t) && i > 0 && tokens[i - 1] !== ',' && (t === 'if' || t === 'whether' || t === 'unless' || finiteSoon(tokens, i + 1))) id++;
    // "we recommend checking your spam folder should it not appear": an inverted condition after its main clause.
    else if (t === 'should' && i > 0 && INVERTED_SUBJECTS.has(tokens[i + 1] ?? '') && /^[a-z]+$/.test(tokens[i - 1]) && !AUX.has(tokens[i - 1]) && !PRONOUNS.has(tokens[i - 1])) id++;
    ids[i] = id;
    // (Clause numbers only grow, so the last negation's clause is the current one if any earlier negation's is.)
    if (NEGATION_WORDS.has(t) || t.endsWith("n't")) negatedClause = id;
  }
  return ids;
}

const NEGATION_WORDS = new Set(['no', 'not', 'never', 'skipped', 'skip', 'without']);

/** The hard segment (between ";", ":", a free dash, brackets and sentence edges) a token lies in. */
export function hardSegment(tokens: string[], i: number): [number, number] {
  // (Not at brackets: an aside is part of the segment it sits in, "the replacement (Friday) … once we have it".)
  const stop = (t: string) => t === ';' || t === ':' || t === '.' || t === '!' || t === '?' || t === '-';
  let a = i;
  while (a > 0 && !stop(tokens[a - 1])) a--;
  let b = i;
  while (b < tokens.length && !stop(tokens[b])) b++;
  return [a, b];
}
