import { roleAtLeast, TWO_STEP_REQUIRED, type TwoStepRequirement } from '../../shared/roles.ts';
import { CallerRefused, type Caller, type VerifyIdToken } from '../http/callerAuth.ts';

/**
 * The token check the Bearer-authenticated /api routes use, with REQUIRE_TWO_STEP applied: with
 * `editors`, an editor or owner without an enrolled factor is refused (403) whatever they ask.
 * Identity's own routes (profile, sign-out, enrolling the factor) do not go through it, so the
 * way to comply stays open. Role and factor are read with the token on every request, so an
 * enrollment or a change of role counts at once.
 */
export function withTwoStepRequirement(
  requirement: TwoStepRequirement,
  verifyIdToken: (idToken: string) => Promise<Caller & { twoStepOn: boolean }>,
): VerifyIdToken {
  return async (idToken) => {
    const { uid, role, twoStepOn } = await verifyIdToken(idToken);
    if (requirement === 'editors' && roleAtLeast(role, 'editor') && !twoStepOn) {
      throw new CallerRefused(403, TWO_STEP_REQUIRED);
    }
    return { uid, role };
  };
}
