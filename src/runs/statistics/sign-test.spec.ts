import { signTest } from './sign-test';

describe('signTest', () => {
  it('is twice the binomial tail of the smaller count', () => {
    // 10 of 10: 2 × (1/2)^10.
    expect(signTest(10, 0, 3).p_value).toBeCloseTo(2 / 1024, 15);
    // 7 against 3: 2 × (C(10,0) + C(10,1) + C(10,2) + C(10,3)) / 2^10 = 2 × 176/1024.
    expect(signTest(7, 3, 0).p_value).toBeCloseTo(352 / 1024, 15);
    expect(signTest(3, 7, 0).p_value).toBeCloseTo(352 / 1024, 15);
  });

  it('caps the p-value at 1 (an even split doubles a tail above 1/2)', () => {
    expect(signTest(3, 3, 0).p_value).toBe(1);
    expect(signTest(1, 1, 4).p_value).toBe(1);
  });

  it('drops ties and has nothing to test without an untied seed', () => {
    expect(signTest(0, 0, 5)).toEqual({ a_better: 0, b_better: 0, ties: 5, p_value: null });
  });

  it('stays finite where 2^-n underflows a double', () => {
    const even = signTest(1500, 1500, 0).p_value!;
    expect(even).toBe(1);
    const lopsided = signTest(1700, 1300, 0).p_value!;
    expect(Number.isFinite(lopsided)).toBe(true);
    expect(lopsided).toBeGreaterThan(0);
    expect(lopsided).toBeLessThan(1e-10);
  });
});
