import { decodeEpisodeCursor, decodeRunCursor, encodeEpisodeCursor, encodeRunCursor } from './episode-cursor';

const at = new Date('2026-12-03T18:27:12.653Z');
const raw = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('listing cursors', () => {
  it('an episode cursor carries the time and the serial, and reads back as issued', () => {
    expect(decodeEpisodeCursor(encodeEpisodeCursor({ createdAt: at, serial: 4242 }))).toEqual({ createdAt: at, serial: 4242 });
    expect(decodeRunCursor(encodeRunCursor({ createdAt: at, id: 'run-1' }))).toEqual({ createdAt: at, id: 'run-1' });
  });

  it.each([
    ['an episode cursor of an earlier release (its tie-breaker an id)', raw([at.toISOString(), 'c5a6ef73-0d31-417d-bfa6-0844c54fb833'])],
    ["a run listing's cursor", encodeRunCursor({ createdAt: at, id: 'run-1' })],
    ['a serial that is not a positive integer', raw([at.toISOString(), 1.5])],
    ['a negative serial', raw([at.toISOString(), -3])],
    ['a time outside the stored range', raw(['0000-01-01T00:00:00.000Z', 7])],
    ['not a cursor at all', 'not-a-cursor'],
  ])('refuses %s with a 422 on the cursor field', (_, cursor) => {
    expect(() => decodeEpisodeCursor(cursor)).toThrow(expect.objectContaining({ message: expect.stringMatching(/cursor is not one this server issued/) }));
  });

  it("refuses an episode listing's cursor for runs", () => {
    expect(() => decodeRunCursor(encodeEpisodeCursor({ createdAt: at, serial: 7 }))).toThrow(/cursor is not one this server issued/);
  });
});
