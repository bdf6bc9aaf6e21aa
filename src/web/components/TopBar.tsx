import { Link } from 'react-router';
import { labels } from '../../shared/messages.ts';
import { paths } from '../../shared/routes.ts';
import { useAuth } from '../auth/useAuth.ts';
import { SearchControl } from './SearchControl.tsx';
import { Wordmark } from './Wordmark.tsx';

export function TopBar() {
  const { state } = useAuth();
  return (
    <header className="border-b border-slate-200 bg-white/80 dark:border-slate-800 dark:bg-slate-950/60">
      <nav aria-label="Main" className="relative mx-auto flex h-14 max-w-5xl items-center gap-3 px-4 sm:gap-6 sm:px-6">
        <Wordmark />
        <Link
          to={paths.home}
          className="text-sm font-medium text-slate-700 hover:text-slate-950 hover:underline dark:text-slate-300 dark:hover:text-white"
        >
          {labels.home}
        </Link>
        <SearchControl />
        {/* Same box for Profile and Login, so the bar never shifts when the state becomes known.
            Until it is, Login shows as a blank box (styles.css): without script it never is
            known, and there it is the Login link (issue 39.4). */}
        {state.status === 'signedIn' ? (
          <Link to={paths.profile} className="top-bar-button">
            {labels.profile}
          </Link>
        ) : (
          <Link
            to={paths.login}
            className={state.status === 'unknown' ? 'top-bar-button auth-pending' : 'top-bar-button'}
          >
            {labels.login}
          </Link>
        )}
      </nav>
    </header>
  );
}
