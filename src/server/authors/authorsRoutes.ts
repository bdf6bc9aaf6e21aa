import type { FastifyPluginAsync } from 'fastify';
import { checkBio, type AuthorProfile } from '../../shared/authorProfile.ts';
import { signedIn } from '../http/apiScope.ts';
import { callerOf } from '../http/callerAuth.ts';
import { sendProblem } from '../http/problem.ts';
import { isAuthorId } from '../articles/articleId.ts';

export interface AuthorsRoutesDeps {
  /** The profile of the account a current slug, an old slug or a uid names; undefined when none. */
  profile(key: string): Promise<AuthorProfile | undefined>;
  /** The profile of the account with this uid. */
  profileOfUid(uid: string): Promise<AuthorProfile | undefined>;
  /** Sets the bio; false when the account has gone meanwhile. */
  setBio(uid: string, bio: string): Promise<boolean>;
}

const NOT_FOUND = 'There is no author with this id or name.';

/**
 * `GET /api/authors/:uidOrSlug` (public) and `PUT /api/authors/:uid` with `{bio}` (the author
 * only), in the `/api` scope.
 */
export function authorsRoutes(deps: AuthorsRoutesDeps): FastifyPluginAsync {
  return async (app) => {
    app.get<{ Params: { key: string } }>('/authors/:key', async (request, reply) => {
      const { key } = request.params;
      const profile = isAuthorId(key) ? await deps.profile(key) : undefined;
      if (!profile) return sendProblem(reply, 404, NOT_FOUND);
      // Names and bios change: a cache may keep it briefly, and must ask again after.
      return reply.header('cache-control', 'no-cache').send(profile);
    });

    app.put<{ Params: { uid: string } }>('/authors/:uid', signedIn, async (request, reply) => {
      const caller = callerOf(request);
      if (caller.uid !== request.params.uid)
        return sendProblem(reply, 403, 'Only the author can change their profile.');
      const body = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) {
        return sendProblem(reply, 400, 'The profile must be an object with a bio.');
      }
      const unknown = Object.keys(body).filter((field) => field !== 'bio');
      if (unknown.length > 0 || !('bio' in body)) {
        const errors = unknown.map((field) => ({ field, message: `${field} cannot be set: a profile takes a bio.` }));
        if (!('bio' in body)) errors.push({ field: 'bio', message: 'Bio is required.' });
        return sendProblem(reply, 400, 'The profile is not valid.', errors);
      }
      const checked = checkBio(body.bio);
      if ('error' in checked) {
        return sendProblem(reply, 400, 'The profile is not valid.', [{ field: 'bio', message: checked.error }]);
      }
      // The profile row exists once the slug does: profile() makes both.
      const before = await deps.profileOfUid(caller.uid);
      if (!before || !(await deps.setBio(caller.uid, checked.bio))) return sendProblem(reply, 404, NOT_FOUND);
      return reply.header('cache-control', 'no-store').send({ ...before, bio: checked.bio });
    });
  };
}
