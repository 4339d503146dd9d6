import { UsageTally } from './usage-tally';

describe('UsageTally', () => {
  it("sums every completion's prompt and completion tokens over the episode", () => {
    const tally = new UsageTally();
    tally.add({ prompt_tokens: 120, completion_tokens: 9 });
    tally.add({ prompt_tokens: 180, completion_tokens: 11 });
    tally.add({ prompt_tokens: 240, completion_tokens: 0 });
    expect(tally.reportFields()).toEqual({ input_tokens: 540, output_tokens: 20 });
  });

  it('reports nothing when the endpoint never gave usage, rather than zero tokens', () => {
    const tally = new UsageTally();
    tally.add(undefined);
    tally.add(null);
    tally.add({});
    expect(tally.reportFields()).toEqual({});
  });

  it('counts the completions that gave usage when some did not, and one side when only one is given', () => {
    const tally = new UsageTally();
    tally.add(undefined);
    tally.add({ prompt_tokens: 50 });
    tally.add({ prompt_tokens: 70, completion_tokens: 5 });
    expect(tally.reportFields()).toEqual({ input_tokens: 120, output_tokens: 5 });
  });

  it('ignores counts that are not whole non-negative numbers (a broken endpoint must not fail the report)', () => {
    const tally = new UsageTally();
    tally.add({ prompt_tokens: -3, completion_tokens: 1.5 });
    expect(tally.reportFields()).toEqual({});
    tally.add({ prompt_tokens: 10, completion_tokens: Number.NaN });
    expect(tally.reportFields()).toEqual({ input_tokens: 10, output_tokens: 0 });
  });
});
