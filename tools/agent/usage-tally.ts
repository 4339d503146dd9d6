/** A completion's token counts as the endpoint reports them (the SDK's CompletionUsage, or less). */
export interface ReportedUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
}

/**
 * The tokens of one episode's completions, summed, for its cell (POST /runs/{id}/episodes/{id}/report). An endpoint
 * that never says (no `usage` on any completion) reports nothing, rather than zero: the cell's counts stay null,
 * "not known", not "free".
 */
export class UsageTally {
  private input = 0;
  private output = 0;
  private reported = false;

  add(usage: ReportedUsage | null | undefined): void {
    if (!usage) return;
    const input = count(usage.prompt_tokens);
    const output = count(usage.completion_tokens);
    if (input === null && output === null) return;
    this.reported = true;
    this.input += input ?? 0;
    this.output += output ?? 0;
  }

  /** The report's token fields: both counts once any completion gave usage, none otherwise. */
  reportFields(): { input_tokens?: number; output_tokens?: number } {
    return this.reported ? { input_tokens: this.input, output_tokens: this.output } : {};
  }
}

function count(value: number | null | undefined): number | null {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : null;
}
