import { OperationRefused } from '../operation-refused';
import { converterFor } from './value-conversion';

describe('a SQLite value as the PostgreSQL column holds it', () => {
  it('turns stored Unix milliseconds (and ISO text of older releases) into the same instant', () => {
    const time = converterFor('episodes', 'created_at', 'timestamp with time zone');
    expect(time(1_796_355_145_107)).toEqual(new Date(1_796_355_145_107));
    expect(time('2026-11-01T12:00:00.123+00:00')).toEqual(new Date('2026-11-01T12:00:00.123Z'));
    expect(time(null)).toBeNull();
    expect(() => time('yesterday')).toThrow(OperationRefused);
    expect(() => time('yesterday')).toThrow('episodes.created_at holds "yesterday", which is not a time');
  });

  it('turns 0 and 1 into booleans, and keeps bytes, integers and text', () => {
    expect([0, 1].map(converterFor('run_regrade_results', 'changed', 'boolean'))).toEqual([false, true]);
    expect(() => converterFor('run_regrade_results', 'changed', 'boolean')(2)).toThrow(/not a boolean/);
    const bytes = Buffer.from('ab', 'hex');
    expect(converterFor('action_log', 'hash', 'bytea')(bytes)).toBe(bytes);
    expect(() => converterFor('action_log', 'hash', 'bytea')('ab')).toThrow(/not bytes/);
    expect(converterFor('action_log', 'created_at', 'bigint')(1_796_355_145_107)).toBe(1_796_355_145_107);
    expect(() => converterFor('episodes', 'seed', 'integer')(1.5)).toThrow(/not an integer/);
    expect(converterFor('episodes', 'agent', 'text')('copy/1')).toBe('copy/1');
  });

  it('keeps finite floating-point numbers, and refuses what is not one', () => {
    const tokens = converterFor('rate_buckets', 'tokens', 'double precision');
    expect([12.5, 0, null].map(tokens)).toEqual([12.5, 0, null]);
    expect(() => tokens('12')).toThrow(/not a finite number/);
    expect(() => tokens(Number.NaN)).toThrow(/not a finite number/);
  });

  it('refuses text PostgreSQL cannot hold rather than change it', () => {
    expect(() => converterFor('episodes', 'agent', 'text')('a\u0000b')).toThrow(/NUL character/);
    expect(() => converterFor('episodes', 'agent', 'text')(5)).toThrow(/where text belongs/);
  });
});
