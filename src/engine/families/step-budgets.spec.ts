import { families } from '.';

/** /tasks publishes each family's declared step budgets: every instance it draws must keep within them. */
describe.each(families().map((f) => [`${f.id} g${f.generatorVersion}`, f] as const))('%s step budgets', (_name, family) => {
  it('draws every instance with a max_steps inside the declared range, and reaches both ends of it', () => {
    const budgets = new Set<number>();
    for (let seed = 0; seed < 300; seed++) budgets.add(family.generate(seed).max_steps);
    const drawn = [...budgets];
    expect(drawn.every((n) => n >= family.maxSteps.min && n <= family.maxSteps.max)).toBe(true);
    expect([Math.min(...drawn), Math.max(...drawn)]).toEqual([family.maxSteps.min, family.maxSteps.max]);
  });
});
