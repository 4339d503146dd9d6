import { translateError } from './error-translator';

/** PostgreSQL's errors arrive as pg's DatabaseError: a SQLSTATE in `code`, the server's words in `message`. */
const postgresError = (code: string, message: string) => Object.assign(new Error(message), { code, severity: 'ERROR' });

describe('database errors on PostgreSQL', () => {
  it.each([
    ['57014', 'canceling statement due to statement timeout'],
    ['57P01', 'terminating connection due to administrator command'],
    ['08006', 'connection failure'],
    ['40P01', 'deadlock detected'],
    ['53300', 'sorry, too many clients already'],
  ])('%s (%s) is a 503 to retry, not an internal error', (code, message) => {
    expect(translateError(postgresError(code, message))).toMatchObject({ status: 503, code: 'UNAVAILABLE', headers: { 'Retry-After': '1' } });
  });

  it('a unique violation (23505) is a 409, as a key conflict is on SQLite', () => {
    expect(translateError(postgresError('23505', 'duplicate key value violates unique constraint "tenants_slug_key"'))).toMatchObject({ status: 409 });
  });

  it('any other database error stays an internal error (500), its text never sent', () => {
    const translated = translateError(postgresError('42P01', 'relation "episodes" does not exist'));
    expect(translated).toMatchObject({ status: 500, unexpected: true });
    expect(JSON.stringify(translated)).not.toContain('relation');
  });
});
