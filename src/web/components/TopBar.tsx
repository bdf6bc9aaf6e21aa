import { Link } from 'react-router';
import { labels } from '../../shared/messages.ts';
import { paths } from '../../shared/routes.ts';
import { useAuth } from '../auth/useAuth.ts';

// Same box for Profile, Login and the placeholder, so the bar never shifts when the state becomes known.
const rightButton =
  'inline-flex h-9 min-w-20 items-center justify-center rounded-md bg-blue-700 px-4 text-sm font-medium text-white hover:bg-blue-800';

export function TopBar() {
  const { state } = useAuth();
  return (
    <header className="border-b border-slate-200 bg-white/90 dark:border-slate-800 dark:bg-slate-950/90">
      <nav aria-label="Main" className="mx-auto flex h-14 max-w-5xl items-center justify-between px-4 sm:px-6">
        <Link to={paths.home} className="text-lg font-semibold tracking-tight">
          {labels.home}
        </Link>
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
