import { useState, type FormEvent } from 'react';
import { useLocation } from 'wouter';
import { useSession } from '../session';

export function SignInPage() {
  const { apiKey, signIn, signOut } = useSession();
  const [key, setKey] = useState('');
  const [, navigate] = useLocation();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim() === '') return;
    signIn(key);
    navigate('/');
  };
  return (
    <section className="narrow">
      <h1>Sign in</h1>
      <p>
        A server that requires keys needs one here: a <strong>reader key</strong> sees its tenant's runs, episodes and scores; an <strong>agent key</strong> sees
        its own runs (test-split scores withheld) and train-split task previews; the admin key reads every tenant. A server in open mode needs none.
      </p>
      <p>The key stays in this browser tab's session storage and is sent only to this server, with each API call.</p>
      <form onSubmit={submit} className="sign-in">
        <label htmlFor="api-key">API key</label>
        <input id="api-key" type="password" autoComplete="off" value={key} onChange={(event) => setKey(event.target.value)} required />
        <button type="submit">Sign in</button>
      </form>
      {apiKey && (
        <p>
          Signed in with a key ending …{apiKey.slice(-4)}.{' '}
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </p>
      )}
    </section>
  );
}
