/**
 * What reading one reply may cost, counted in units of work on the reply itself, never in time, so that the step
 * that receives a reply, a replay (`/verify`) and a rescore reach the same verdict however loaded the machine is.
 *
 * Cleaning, splitting and tokenising read the reply once each. Past that, each token is looked up in the engine's
 * word and phrase lists (a fixed number of them), and the scans that judge a sentence (clause edges, the stance of
 * each word, values and what they are about, actions and their objects, requests) may compare each of its tokens
 * with the others of its sentence; nothing compares tokens of different sentences beyond the two sentences before.
 * And the rules that read a sentence whole (its shape, runbook markers, greetings, retractions, each claim's pass
 * over it) cost the same for every sentence, however short. So a sentence of n tokens is charged
 * n * (n + TOKEN_CHARGE) + SENTENCE_CHARGE units: the token pairs its scans may examine, TOKEN_CHARGE lookups for
 * each token, and its sentence-wide rules. The charges are in proportion to what each part was measured to cost.
 *
 * A reply over READING_BUDGET is not read: it is graded as unreadable, with no credit for any detail it states and
 * no statement in it judged, and the grade says so. The budget is far above anything written to a customer: an
 * honest reply as long as the API accepts (8,000 characters) costs about 200,000 units, the costliest reply of the
 * validity fixtures under 40,000; it takes a "sentence" of about 970 tokens with no full stop or line break, or
 * some 1,700 one-word lines, a keyword dump or an attack, to reach it.
 */
export const READING_BUDGET = 1_000_000;

/** Units charged for each token, besides its pairs with the other tokens of its sentence. */
export const TOKEN_CHARGE = 64;

/** Units charged for each sentence, for the rules that read it whole. */
export const SENTENCE_CHARGE = 512;

/** The units a reply's reading is charged, from its sentences' tokens. */
export function readingCost(sentences: readonly (readonly string[])[]): number {
  let cost = 0;
  for (const tokens of sentences) cost += tokens.length * (tokens.length + TOKEN_CHARGE) + SENTENCE_CHARGE;
  return cost;
}

export function withinReadingBudget(sentences: readonly (readonly string[])[]): boolean {
  return readingCost(sentences) <= READING_BUDGET;
}
