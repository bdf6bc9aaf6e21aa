import { Link } from 'react-router';
import { paths } from '../../shared/routes.ts';

export function TopBar() {
  return (
    <header className="border-b border-slate-200 bg-white/90 dark:border-slate-800 dark:bg-slate-950/90">
      <nav aria-label="Main" className="mx-auto flex h-14 max-w-5xl items-center justify-between px-4 sm:px-6">
        <Link to={paths.home} className="text-lg font-semibold tracking-tight">
          Home
        </Link>
        <Link
          to={paths.login}
          className="rounded-md bg-blue-700 px-4 py-2 text-sm font-medium text-white hover:bg-blue-800"
        >
          Login
        </Link>
      </nav>
    </header>
  );
}
