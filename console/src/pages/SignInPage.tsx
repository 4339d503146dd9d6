import { useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { useSession } from '../session';

export function SignInPage() {
  const { apiKey, signIn, signOut } = useSession();
  const [key, setKey] = useState('');
  const [, navigate] = useLocation();
  // Back to the page that asked for a key (only a path of the console: never another site).
  const requested = new URLSearchParams(useSearch()).get('next') ?? '/';
  const next = requested.startsWith('/') && !requested.startsWith('//') ? requested : '/';
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim() === '') return;
    signIn(key);
    navigate(next);
  };
  return (
    <section className="narrow">
      <h1>Sign in</h1>
      <p>
        A server that requires keys needs one here: a <strong>reader key</strong> sees its tenant's runs, episodes and scores; an <strong>agent key</strong> sees
        its own runs (test-split scores withheld) and train-split task previews. The admin key reads episodes and audits of every tenant, but not runs or the
        leaderboard, which belong to a tenant. A server in open mode needs none.
      </p>
      <p>The key stays in this tab's session storage until you sign out or close the tab, and is sent only to this server, with each API call.</p>
      <form onSubmit={submit} className="sign-in">
        <label htmlFor="api-key">API key</label>
        <input id="api-key" type="password" autoComplete="off" value={key} onChange={(event) => setKey(event.target.value)} required />
        <button type="submit">Sign in</button>
      </form>
      {apiKey && (
        <p>
          Signed in.{' '}
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </p>
      )}
    </section>
  );
}
