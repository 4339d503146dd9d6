/** The OpenEnv inference-script log format, one line per event. */
export function startLine(taskId: string, model: string): string {
  return `[START] task=${taskId} env=supportdesk model=${model}`;
}

export function stepLine(step: number, action: unknown, reward: number, done: boolean, error: string | null): string {
  return `[STEP] step=${step} action=${JSON.stringify(action)} reward=${reward.toFixed(2)} done=${done} error=${error === null ? 'null' : oneLine(error)}`;
}

export function endLine(success: boolean, steps: number, rewards: number[]): string {
  return `[END] success=${success} steps=${steps} rewards=${rewards.map((r) => r.toFixed(2)).join(',')}`;
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
