import type { AuthorProfile } from '../../shared/authorProfile.ts';
import type { ServedPage } from './servedPage.ts';

/**
 * The profile of the author whose page the server rendered, when it was at `slug`: the page
 * shows it at once, on the server and when the app takes the page over, without asking again.
 */
export function servedAuthor({ screen }: ServedPage, slug: string): AuthorProfile | null {
  return screen?.kind === 'author' && screen.author.slug === slug ? screen.author : null;
}
