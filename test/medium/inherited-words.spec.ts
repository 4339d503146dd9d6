import { reset, step } from '../../src/engine/engine';
import type { Action } from '../../src/engine/actions';
import type { Task } from '../../src/engine/task.schema';
import { latestFamilies } from '../../src/families';

/*
 * Words every plain JavaScript object "has" (constructor, __proto__, toString, …) are words a reply or a query
 * may hold. A table keyed by a reply's words that inherits them once read "constructor" as a number and held the
 * grader in a loop for good; each must grade like any unknown word, on every family and in every action that
 * carries text.
 */

const INHERITED = Object.getOwnPropertyNames(Object.prototype);
const WORDS = [...new Set([...INHERITED, ...INHERITED.map((w) => w.toLowerCase())])];

function sentencesWith(word: string): string[] {
  return [
    word,
    `${word}.`,
    `Hello, we refunded ${word} dollars on ${word} 27 by ${word} and the ${word} of your order, within ${word} business days.`,
    `Your ${word} ${word}s was ${word}ed; we ${word} it by ${word} (${word} hours, $${word}, ${word} 2026).`,
  ];
}

const instances: Array<[string, Task]> = latestFamilies().flatMap((family) => [0, 1].map((seed) => [`${family.id} #${seed}`, family.generate(seed)] as [string, Task]));

describe.each(instances)('%s: inherited property names', (_name, task) => {
  it('grade like unknown words in replies and searches', () => {
    let state = reset(task, 1);
    state = step(task, state, { type: 'open_ticket', ticket_id: task.inbox[0].id }).state;
    for (const word of WORDS) {
      for (const text of sentencesWith(word)) {
        const actions: Action[] = [
          { type: 'search_policy', query: text },
          { type: 'send_reply', message: text },
        ];
        for (const action of actions) {
          const result = step(task, { ...state, max_steps: 1000 }, action);
          expect(Number.isFinite(result.reward_milli)).toBe(true);
          expect(result.state.score_milli).toBeGreaterThanOrEqual(0);
          expect(result.state.score_milli).toBeLessThanOrEqual(1000);
        }
      }
    }
  });
});
