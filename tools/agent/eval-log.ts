/**
 * The OpenEnv inference-script log format, one line per event. A score the server withheld (a test-split episode
 * played with an agent key: its last step's reward and the score) is printed as `withheld`, never as a number.
 */
export const WITHHELD = 'withheld';

export type Logged = number | typeof WITHHELD;

export function startLine(taskId: string, model: string): string {
  return `[START] task=${taskId} env=supportdesk model=${model}`;
}

export function stepLine(step: number, action: unknown, reward: Logged, done: boolean, error: string | null): string {
  return `[STEP] step=${step} action=${JSON.stringify(action)} reward=${figure(reward)} done=${done} error=${error === null ? 'null' : oneLine(error)}`;
}

export function endLine(success: boolean | typeof WITHHELD, steps: number, rewards: Logged[]): string {
  return `[END] success=${success} steps=${steps} rewards=${rewards.map(figure).join(',')}`;
}

function figure(value: Logged): string {
  return value === WITHHELD ? WITHHELD : value.toFixed(2);
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
