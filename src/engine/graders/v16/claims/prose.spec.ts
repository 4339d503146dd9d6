import { stanceOf } from './polarity';
import { shapeOf } from './prose';
import { cleanText, splitSentences, tokenize } from './text';

const shape = (s: string) => shapeOf(tokenize(cleanText(s)));

describe('sentence shape', () => {
  it.each([
    ['We have refunded $348.00 to your Visa.', 'prose'],
    ['Your original renewal (INV-88213) remains valid.', 'prose'],
    ['Account locked, all sessions signed out.', 'prose'],
    ['Keys revoked, sessions ended, account locked.', 'telegraphic'],
    ['Replacement shipping today by overnight priority courier, arriving Friday 27 November before noon; $150.00 shipping credit applied.', 'telegraphic'],
    ['$348 5-7 business days locked the account revoked all api keys video call overnight Nov 27 $150', 'not_a_sentence'],
    ['locked account signed out sessions revoked API keys 72 hours video call', 'not_a_sentence'],
    ['Keywords: duplicate, refund, $348.00, 5-7 business days, Visa, annual, settle', 'not_a_sentence'],
    ['Hemos reembolsado el cargo duplicado de 348,00 USD a tu tarjeta Visa.', 'other_language'],
    ['Nous avons remboursé le prélèvement en double sur votre carte.', 'other_language'],
  ])('%s -> %s', (text, expected) => {
    expect(shape(text)).toBe(expected);
  });
});

describe('sentence splitting', () => {
  it('splits on lines and full stops but not inside abbreviations, numbers or list marks', () => {
    const s = splitSentences(cleanText('Hi Dana,\n\n1. Revoked keys (incl. sync-prod-2). Delivered Fri 27.11. before noon.\n- Done! ok?'));
    expect(s.map((x) => x.text)).toEqual(['Hi Dana,', 'Revoked keys (incl. sync-prod-2).', 'Delivered Fri 27.11. before noon.', 'Done!', 'ok?']);
    expect(s.map((x) => x.bullet)).toEqual([false, true, true, true, true]);
  });
});

describe('stance', () => {
  const moods = (text: string, values: number[] = []) => stanceOf(tokenize(text), new Set(values)).moods.join('');

  it('a negation reaches to the edge of its clause only', () => {
    // we have refunded $ 348 | ; you don't need to do anything | .
    expect(moods("we have refunded $ 348 ; you don't need to do anything .")).toBe('aaaaannnnnnna');
  });

  it('a conditional reaches over its segment, a customer fallback only over itself', () => {
    expect(moods('if approved , we will refund $ 348 .')).toBe('hhhhhhhha');
    expect(moods('if you have questions , let us know .')).toBe('ccccaaaaa');
  });

  it('a contrastive "not" before a value sets aside that value only', () => {
    // "we refunded $ 150 , not $ 50" : the $50 starts at index 6.
    expect(moods('we refunded $ 150 , not $ 50', [2, 6])).toBe('aaaaaccc');
  });

  it('a question states nothing', () => {
    expect(moods('shall we refund $ 348 ?')).toBe('hhhhhh');
  });
});
