import { formTiers } from './form-tiers';

describe('formTiers', () => {
  it('anchors each tier on its leader, so an entry close to a member but not to the leader starts a new tier', () => {
    const close = new Set(['a~b', 'b~c']); // a~b and b~c, but not a~c: overlap is not transitive
    const calls: string[] = [];
    const tiers = formTiers(
      [
        { id: 'c', score: 0.6 },
        { id: 'a', score: 0.8 },
        { id: 'b', score: 0.7 },
      ],
      (leader, id) => {
        calls.push(`${leader}~${id}`);
        return close.has(`${leader}~${id}`);
      },
    );
    expect([...tiers]).toEqual([
      ['a', 1],
      ['b', 1],
      ['c', 2],
    ]);
    expect(calls).toEqual(['a~b', 'a~c']);
  });

  it('orders equal scores by id and ignores the input order', () => {
    const entries = [
      { id: 'zeta', score: 0.5 },
      { id: 'alpha', score: 0.5 },
      { id: 'mid', score: 0.9 },
      { id: 'low', score: 0.1 },
    ];
    const apart = (): boolean => false;
    const expected = [
      ['mid', 1],
      ['alpha', 2],
      ['zeta', 3],
      ['low', 4],
    ];
    expect([...formTiers(entries, apart)]).toEqual(expected);
    expect([...formTiers([...entries].reverse(), apart)]).toEqual(expected);
  });

  it('puts everyone in tier 1 when all are within noise of the leader, and forms no tier from nothing', () => {
    const tiers = formTiers(
      [
        { id: 'a', score: 1 },
        { id: 'b', score: 0 },
      ],
      () => true,
    );
    expect([...tiers.values()]).toEqual([1, 1]);
    expect(formTiers([], () => true).size).toBe(0);
  });

  it('refuses an id given twice and a score that cannot be ordered', () => {
    expect(() => formTiers([{ id: 'a', score: 1 }, { id: 'a', score: 0 }], () => true)).toThrow(RangeError);
    expect(() => formTiers([{ id: 'a', score: Number.NaN }], () => true)).toThrow(RangeError);
  });
});
