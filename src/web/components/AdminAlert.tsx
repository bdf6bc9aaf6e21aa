import { Link } from 'react-router';
import { TWO_STEP_REQUIRED } from '../../shared/roles.ts';
import { paths } from '../../shared/routes.ts';
import { FormAlert } from './FormAlert.tsx';
import { linkClass } from './formStyles.ts';
import { ArticlesApiError } from '../api/articlesApiError.ts';

/**
 * What an admin section says when a call fails: the server's own words when the site requires
 * two-step verification first (REQUIRE_TWO_STEP), else the section's `fallback`.
 */
export function adminFailure(caught: unknown, fallback: string): string {
  return caught instanceof ArticlesApiError && caught.status === 403 && caught.message === TWO_STEP_REQUIRED
    ? TWO_STEP_REQUIRED
    : fallback;
}

/** The section's error, with the way to the profile when two-step verification is what is missing. */
export function AdminAlert({ message }: { message: string | null }) {
  return (
    <>
      <FormAlert message={message} tone="error" />
      {message === TWO_STEP_REQUIRED && (
        <p>
          <Link to={paths.profile} className={linkClass}>
            Turn on two-step verification
          </Link>
        </p>
      )}
    </>
  );
}
