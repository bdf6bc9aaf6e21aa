import fs from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import { SERVED_SCREEN_ELEMENT_ID, type RenderScreen, type ServedScreen } from '../../shared/servedScreen.ts';
import type { SiteIdentity } from '../../shared/siteIdentity.ts';

/**
 * Puts a rendered reading screen into the HTML shell; undefined when it cannot be rendered.
 * `search` is the page's query string (`?q=…`, or ''): screens read it as in the browser.
 */
export type ScreenInShell = (
  shell: string,
  pathname: string,
  screen: ServedScreen,
  search?: string,
) => string | undefined;

/**
 * Loads the server's renderer of the reading screens (decision 0301), built beside the web app
 * (webBuild.ts). Without the file (a build from before it) pages are served as the bare shell,
 * as before: the app renders them in the browser.
 */
export async function loadScreenRenderer(
  file: string,
  site: SiteIdentity,
  log: FastifyBaseLogger,
): Promise<ScreenInShell | undefined> {
  if (!fs.existsSync(file)) return undefined;
  const { renderScreen } = (await import(pathToFileURL(file).href)) as { renderScreen: RenderScreen };
  return (shell, pathname, screen, search = '') => {
    let markup: string;
    try {
      markup = renderScreen({ pathname, search, site, screen });
    } catch (error) {
      // The bare shell still works: the app renders the screen in the browser.
      log.error({ err: error, pathname }, 'server rendering of a reading screen failed');
      return undefined;
    }
    return shellWithScreen(shell, markup, screen);
  };
}

// The static frame painted while the app loads (index.html): a rendered screen replaces it.
const BOOT_FRAME = /<!--[^>]*?-->\s*<!-- prettier-ignore -->\s*<div id="boot-frame">[\s\S]*?<div id="root"><\/div>/;

/** The shell with the screen's markup in the app's root and the data it was made from beside it. */
export function shellWithScreen(shell: string, markup: string, screen: ServedScreen): string {
  const data = `<script type="application/json" id="${SERVED_SCREEN_ELEMENT_ID}">${jsonInScript(lean(screen))}</script>`;
  const root = `<div id="root">${markup}</div>${data}`;
  if (BOOT_FRAME.test(shell)) return shell.replace(BOOT_FRAME, () => root);
  return shell.replace('<div id="root"></div>', () => root);
}

/**
 * The data without the Markdown sources: the reading screens show the rendered body (article),
 * excerpts (lists) and snippets (search), and the editor fetches an article afresh. Halves the page's weight.
 */
function lean(screen: ServedScreen): ServedScreen {
  switch (screen.kind) {
    case 'article':
      // The comments are in the markup; their code reads them afresh (src/web/comments/CommentsSlot.tsx).
      return { kind: 'article', article: { ...screen.article, description: '' } };
    case 'home':
    case 'author':
    case 'tag':
      return {
        ...screen,
        page: { ...screen.page, articles: screen.page.articles.map((article) => ({ ...article, description: '' })) },
      };
    case 'search':
      return {
        ...screen,
        page: {
          ...screen.page,
          results: screen.page.results.map((result) => ({
            ...result,
            article: { ...result.article, description: '' },
          })),
        },
      };
  }
}

/** JSON that cannot end the script element it sits in, nor break a line in old parsers. */
function jsonInScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
