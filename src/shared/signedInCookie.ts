/**
 * Dependency-free and tiny: every page's first script reads it (src/web/auth/browserSession.ts).
 */

/**
 * Set (readable by the page, Path=/, 5 minutes) by a provider sign-in's callback next to the
 * HttpOnly session cookie: "this browser has just signed in". The app, which cannot see the
 * session cookie, asks the server for the session when it finds this, even where no note in
 * localStorage says the browser may hold one (a sign-in started by a link, not the login
 * page's button), and then removes it. Not a credential: it only makes the app ask.
 */
export const SIGNED_IN_COOKIE = 'inkwell_signed_in';
export const SIGNED_IN_COOKIE_MAX_AGE_SECONDS = 300;
