import { useEffect, useRef } from 'react';
import { Link, Route, Switch, useLocation } from 'wouter';
import { useSession } from './session';
import { EpisodesPage } from './pages/EpisodesPage';
import { LeaderboardPage } from './pages/LeaderboardPage';
import { RunPage } from './pages/RunPage';
import { RunsPage } from './pages/RunsPage';
import { SignInPage } from './pages/SignInPage';
import { TaskPreviewPage } from './pages/TaskPreviewPage';
import { TasksPage } from './pages/TasksPage';
import { TrajectoryPage } from './pages/TrajectoryPage';

const SECTIONS = [
  { href: '/', label: 'Leaderboard', matches: (path: string) => path === '/' },
  { href: '/runs', label: 'Runs', matches: (path: string) => path.startsWith('/runs') },
  { href: '/episodes', label: 'Episodes', matches: (path: string) => path.startsWith('/episodes') },
  { href: '/tasks', label: 'Tasks', matches: (path: string) => path.startsWith('/tasks') },
];

export function App() {
  const [path] = useLocation();
  const { apiKey, signOut } = useSession();
  const main = useRef<HTMLElement>(null);
  // A new page moves focus to its content, as a page load would, so keyboard and screen-reader users start there.
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    // A new page starts at its top, as a page load would (wouter keeps the scroll position).
    window.scrollTo(0, 0);
    main.current?.focus({ preventScroll: true });
  }, [path]);
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="top">
        <Link href="/" className="brand">
          SupportDesk
        </Link>
        <nav aria-label="Sections">
          <ul>
            {SECTIONS.map((section) => (
              <li key={section.href}>
                <Link href={section.href} aria-current={path === section.href ? 'page' : section.matches(path) ? 'true' : undefined}>
                  {section.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="key-status">
          {apiKey ? (
            <>
              <span className="key-label" title="The API key is kept in this tab's session storage">
                Signed in
              </span>
              <button type="button" onClick={signOut}>
                Sign out
              </button>
            </>
          ) : (
            <Link href="/sign-in">Sign in</Link>
          )}
        </div>
      </header>
      <main id="main" ref={main} tabIndex={-1}>
        <Switch>
          <Route path="/" component={LeaderboardPage} />
          <Route path="/runs" component={RunsPage} />
          <Route path="/runs/:runId" component={RunPage} />
          <Route path="/episodes" component={EpisodesPage} />
          <Route path="/episodes/:episodeId" component={TrajectoryPage} />
          <Route path="/tasks" component={TasksPage} />
          <Route path="/tasks/:taskId" component={TaskPreviewPage} />
          <Route path="/sign-in" component={SignInPage} />
          <Route>
            <h1>Page not found</h1>
            <p>
              This console has no such page. Start at the <Link href="/">leaderboard</Link>.
            </p>
          </Route>
        </Switch>
      </main>
    </>
  );
}
