import type { SignupPolicy } from './roles.ts';

/**
 * The blog's name and one-line description (SITE_TITLE and SITE_DESCRIPTION, docs/architecture.md, Configuration).
 * The server writes them into every HTML shell it serves, as a JSON data block
 * `<script type="application/json" id="site-identity">`, so the web app renders the
 * masthead without asking the API; `readSiteIdentity` reads that block's text back.
 */
export interface SiteIdentity {
  title: string;
  description: string;
  /** Who may sign up (SIGNUP): the sign-up and sign-in screens say so before anyone tries. */
  signup: SignupPolicy;
  /** NEWSLETTER=on: the subscribe forms are shown (DESIGN.md §9.3). Absent when off. */
  newsletter?: boolean | undefined;
  /**
   * FEDERATION=on: the handle people follow (`@blog@HOST`, DESIGN.md §9.4). Absent when off. Only
   * staff's code reads it (readFediverseHandle in the admin screen), not readSiteIdentity: the home
   * page's code carries nothing of federation.
   */
  fediverse?: string | undefined;
}

/** The id of the shell's JSON data block. */
export const SITE_IDENTITY_ELEMENT_ID = 'site-identity';

/** What the app shows where no server filled the shell in (the Vite dev server). */
export const FALLBACK_SITE_IDENTITY: SiteIdentity = {
  title: 'Inkwell',
  description: 'Articles worth reading.',
  signup: 'open',
};

/** The identity in the data block's text; the fallback for a missing or malformed block. */
export function readSiteIdentity(text: string | null | undefined): SiteIdentity {
  try {
    const value = JSON.parse(text ?? '') as Partial<SiteIdentity> | null;
    if (typeof value?.title === 'string' && typeof value.description === 'string') {
      // Spelled out rather than looked up in roles.ts: this runs in the home page's code.
      const signup = value.signup === 'invite' || value.signup === 'closed' ? value.signup : 'open';
      return { title: value.title, description: value.description, signup, newsletter: value.newsletter };
    }
  } catch {
    // fall through: a shell without the block (dev server) or a hand-edited one
  }
  return FALLBACK_SITE_IDENTITY;
}
