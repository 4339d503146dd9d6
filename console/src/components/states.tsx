import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'wouter';
import { ApiError } from '../api';

/** A placeholder of the size the content will take, so nothing moves when it arrives. */
export function Loading({ label, minHeight = 160 }: { label: string; minHeight?: number }) {
  return (
    <div className="loading" style={{ minHeight }} role="status" aria-live="polite">
      <span className="visually-hidden">Loading {label}…</span>
      <div className="skeleton" aria-hidden="true" />
      <div className="skeleton short" aria-hidden="true" />
      <div className="skeleton" aria-hidden="true" />
    </div>
  );
}

/** What went wrong, in the server's words, and what to do next. */
export function ErrorState({ error, retry }: { error: unknown; retry?: () => void }) {
  const status = error instanceof ApiError ? error.status : 0;
  const message = error instanceof Error ? error.message : String(error);
  let next: ReactNode;
  if (status === 401) {
    next = (
      <>
        This server needs an API key. <Link href={signInHere()}>Sign in with a key</Link>.
      </>
    );
  } else if (status === 403) {
    next = (
      <>
        Your key may not see this. Audits, episodes and scores need a reader key of the tenant: <Link href={signInHere()}>sign in with one</Link>.
      </>
    );
  } else if (status === 404) {
    next = (
      <>
        Check the address, or go back to the <Link href="/">leaderboard</Link>.
      </>
    );
  } else if (status === 409) {
    next = <>This conflicts with the data as it stands (the message says how); change the request rather than retrying it.</>;
  } else if (status === 422) {
    next = <>Change the value the message names and try again.</>;
  } else {
    next = (
      <>
        The server may be busy or restarting.{' '}
        {retry && (
          <button type="button" onClick={retry}>
            Try again
          </button>
        )}
      </>
    );
  }
  return (
    <div className="error-state" role="alert">
      <p className="error-message">
        {status > 0 ? `${status}: ` : ''}
        {message}
      </p>
      <p>{next}</p>
    </div>
  );
}

/** The sign-in page, coming back here afterwards. */
function signInHere(): string {
  const here = window.location.pathname.replace(/^\/console/, '') + window.location.search;
  return `/sign-in?next=${encodeURIComponent(here || '/')}`;
}

export function Empty({ children }: { children: ReactNode }) {
  return <div className="empty-state">{children}</div>;
}

/**
 * A query's three states in one place: a placeholder of the content's size while it loads, the error with what to
 * do next, and the content once the data is there.
 */
export function Loaded<T>({ query, label, minHeight, children }: { query: UseQueryResult<T>; label: string; minHeight: number; children: (data: T) => ReactNode }) {
  if (query.isPending) return <Loading label={label} minHeight={minHeight} />;
  if (query.isError) return <ErrorState error={query.error} retry={() => void query.refetch()} />;
  return <>{children(query.data as T)}</>;
}
