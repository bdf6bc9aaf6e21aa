import { Link } from 'react-router';
import { labels } from '../../shared/messages.ts';
import { paths } from '../../shared/routes.ts';
import { useAuth } from '../auth/useAuth.ts';
import { SearchControl } from './SearchControl.tsx';
import { Wordmark } from './Wordmark.tsx';

// Same box for Profile, Login and the placeholder, so the bar never shifts when the state becomes known.
const rightButton =
  'inline-flex h-9 min-w-20 items-center justify-center rounded-full bg-blue-700 px-4 text-sm font-medium text-white hover:bg-blue-800';

export function TopBar() {
  const { state } = useAuth();
  return (
    <header className="border-b border-slate-200 bg-white/80 dark:border-slate-800 dark:bg-slate-950/60">
      <nav aria-label="Main" className="mx-auto flex h-14 max-w-5xl items-center gap-4 px-4 sm:gap-6 sm:px-6">
        <Wordmark />
        <Link
          to={paths.home}
          className="text-sm font-medium text-slate-700 hover:text-slate-950 hover:underline dark:text-slate-300 dark:hover:text-white"
        >
          {labels.home}
        </Link>
        <SearchControl />
        {state.status === 'unknown' ? (
          <span aria-hidden="true" className="h-9 min-w-20 rounded-md bg-slate-200/60 dark:bg-slate-800/60" />
        ) : state.status === 'signedIn' ? (
          <Link to={paths.profile} className={rightButton}>
            {labels.profile}
          </Link>
        ) : (
          <Link to={paths.login} className={rightButton}>
            {labels.login}
          </Link>
        )}
      </nav>
    </header>
  );
}
