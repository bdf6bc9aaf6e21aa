/**
 * The blog's name and one-line description (SITE_TITLE and SITE_DESCRIPTION, DESIGN.md §2).
 * The server writes them into the HTML shell, so the masthead, the wordmark and the tab title
 * need no call of their own; the defaults stand in where no shell is (tests rendering on Node).
 */
export interface SiteInfo {
  title: string;
  description: string;
}

export const DEFAULT_SITE_INFO: SiteInfo = { title: 'Inkwell', description: 'Articles worth reading.' };

function metaContent(name: string): string | null {
  const content = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`)?.content.trim();
  return content ? content : null;
}

function read(): SiteInfo {
  if (typeof document === 'undefined') return DEFAULT_SITE_INFO;
  return {
    title: metaContent('application-name') ?? DEFAULT_SITE_INFO.title,
    description: metaContent('inkwell:site-description') ?? DEFAULT_SITE_INFO.description,
  };
}

let cached: SiteInfo | undefined;

/** Read once: the shell does not change while the page lives. */
export function siteInfo(): SiteInfo {
  cached ??= read();
  return cached;
}
