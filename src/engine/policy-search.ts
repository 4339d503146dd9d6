import MiniSearch from 'minisearch';
import { eng, removeStopwords } from 'stopword';
import type { Article, Task } from './task.schema';
import { LIMITS } from './vocabulary';
import type { SearchHit } from './state';

/**
 * One BM25 index per task object, and the latest searches on it; tasks are immutable once loaded (instances are
 * cached by the catalogue), so neither ever goes stale. Searches repeat: the trials of an evaluation run play the
 * same instance, and agents search again for what they searched before.
 */
interface TaskSearch {
  index: MiniSearch<Article>;
  articles: Map<string, Article>;
  /** Results by limit and query, the most recent last; at most RECENT_SEARCHES. */
  recent: Map<string, SearchHit[]>;
}

const searches = new WeakMap<Task, TaskSearch>();

/** Searches remembered per task: a search takes a fraction of a millisecond, and an instance lives a few episodes. */
const RECENT_SEARCHES = 32;

function searchOf(task: Task): TaskSearch {
  let search = searches.get(task);
  if (!search) {
    const index = new MiniSearch<Article>({
      fields: ['title', 'body'],
      idField: 'id',
      searchOptions: { boost: { title: 2 }, prefix: true, fuzzy: 0.15, combineWith: 'OR' },
    });
    index.addAll(task.knowledge_base);
    search = { index, articles: new Map(task.knowledge_base.map((a) => [a.id, a])), recent: new Map() };
    searches.set(task, search);
  }
  return search;
}

/** Ranked search over the task's knowledge base: top-k by BM25 score, ties broken by article id. */
export function searchPolicies(task: Task, query: string, limit: number = LIMITS.searchResults): SearchHit[] {
  const search = searchOf(task);
  const key = `${limit}\u0000${query}`;
  let hits = search.recent.get(key);
  if (hits) {
    search.recent.delete(key);
  } else {
    hits = ranked(search, query, limit);
    if (search.recent.size >= RECENT_SEARCHES) search.recent.delete(search.recent.keys().next().value!);
  }
  search.recent.set(key, hits);
  // Copies: the hits go into an episode's state, which is the episode's own.
  return hits.map((hit) => ({ ...hit }));
}

function ranked({ index, articles }: TaskSearch, query: string, limit: number): SearchHit[] {
  return index
    .search(query)
    .sort((a, b) => b.score - a.score || String(a.id).localeCompare(String(b.id)))
    .slice(0, limit)
    .map((hit) => {
      const article = articles.get(String(hit.id))!;
      return {
        article_id: article.id,
        title: article.title,
        snippet: snippetFor(article.body, hit.terms),
        body: article.body,
        score: Math.round(hit.score * 1000) / 1000,
      };
    });
}

/** Most words a query that names what it looks for needs; the instruction or a ticket pasted whole has more. */
export const MAX_DISCRIMINATING_WORDS = 12;

function contentWords(text: string): Set<string> {
  const tokens = MiniSearch.getDefault('tokenize')(text, '').map((t: string) => t.toLowerCase()).filter((t: string) => t.length > 0);
  return new Set(removeStopwords(tokens, eng));
}

/** "team" and "teams" are one word here. */
const singular = (word: string) => word.replace(/(?<=[a-z]{3})s$/, '');

/**
 * Whether a query tells the knowledge base's articles apart (grader version 2): at least one word that is not an
 * English stop word ("the" alone finds nothing in particular), at most MAX_DISCRIMINATING_WORDS distinct ones (the
 * whole instruction pasted ranks every article), and at least one word the instruction does not contain: a word
 * from what the agent read ("team" or "priority" from the instruction name no case).
 */
export function discriminates(query: string, instruction: string): boolean {
  const content = contentWords(query);
  if (content.size < 1 || content.size > MAX_DISCRIMINATING_WORDS) return false;
  const told = new Set([...contentWords(instruction)].map(singular));
  return [...content].some((word) => !told.has(singular(word)));
}

/** True when the query has at least one word the index can search for. */
export function isSearchable(query: string): boolean {
  return MiniSearch.getDefault('tokenize')(query, '').some((token: string) => token.trim().length > 0);
}

const SNIPPET_LENGTH = 220;

/** The sentence that mentions the most matched terms (first one wins ties), trimmed to a readable length. */
function snippetFor(body: string, terms: string[]): string {
  const sentences = body.match(/[^.!?\n]+[.!?]?/g)?.map((s) => s.trim()).filter(Boolean) ?? [body];
  const lowered = terms.map((t) => t.toLowerCase());
  let best = sentences[0];
  let bestHits = -1;
  for (const sentence of sentences) {
    const words = sentence.toLowerCase();
    const hits = lowered.filter((term) => words.includes(term)).length;
    if (hits > bestHits) {
      best = sentence;
      bestHits = hits;
    }
  }
  return best.length > SNIPPET_LENGTH ? `${best.slice(0, SNIPPET_LENGTH - 1).trimEnd()}…` : best;
}
