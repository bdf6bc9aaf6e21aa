import type { SiteSettings } from '../../shared/siteSettings.ts';

/**
 * What the server writes into every page's shell from the settings (decision 0841), with no
 * script: the icon and the settings' stylesheet in the head, the navigation links above the
 * top bar and the footer text at the foot. All of it is absent while a setting is unset, so a
 * site that never changed them serves the pages (and their byte budgets) as before.
 */
export interface SiteFrame {
  title: string;
  /** For <head>: the icon link and the stylesheet link. */
  head: string;
  /** Before the app's root: the navigation links. */
  bodyStart: string;
  /** After the app's root: the footer text. */
  bodyEnd: string;
}

/**
 * The shell's frame as the settings last read are (`latest`), with `shellTags` (the site identity
 * block) in its head: the same object until they are read anew, so the shell made from it is kept.
 */
export function settingsFrame(latest: () => SiteSettings, shellTags: () => string): () => SiteFrame {
  let made: { from: SiteSettings; frame: SiteFrame } | undefined;
  return () => {
    const settings = latest();
    if (made?.from !== settings) {
      const frame = siteFrame(settings);
      made = { from: settings, frame: { ...frame, head: shellTags() + frame.head } };
    }
    return made.frame;
  };
}

export const SITE_STYLESHEET_PATH = '/site.css';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (sign) => `&#${sign.charCodeAt(0)};`);

export function siteFrame(settings: SiteSettings): SiteFrame {
  const styled = settings.navigation.length > 0 || settings.footer !== '' || settings.accentColor !== null;
  // The accent is in the stylesheet's URL: a new colour is a new URL, never a stale copy.
  const stylesheet = styled
    ? `<link rel="stylesheet" href="${SITE_STYLESHEET_PATH}${settings.accentColor ? `?accent=${settings.accentColor.slice(1)}` : ''}">`
    : '';
  const icon = settings.iconUrl === null ? '' : `<link rel="icon" href="${escapeHtml(settings.iconUrl)}">`;
  const links = settings.navigation
    .map((link) => `<li><a href="${escapeHtml(link.url)}" dir="auto">${escapeHtml(link.label)}</a></li>`)
    .join('');
  return {
    title: settings.title,
    head: icon + stylesheet,
    bodyStart: links === '' ? '' : `<nav aria-label="Site" class="site-links"><ul>${links}</ul></nav>`,
    // Plain text (no Markdown): its line breaks are kept by the stylesheet's white-space rule. A
    // landmark of its own, as the fediverse line's: the app's footer is the page's one contentinfo.
    bodyEnd:
      settings.footer === ''
        ? ''
        : `<aside aria-label="About this site" class="site-footer-text"><p dir="auto">${escapeHtml(settings.footer)}</p></aside>`,
  };
}

/**
 * The settings' stylesheet: the navigation row and the footer text, and the accent colour as
 * the theme's blue (links, buttons and the ink mark use it), lighter in dark mode. A file of this
 * site, as the CSP's style-src 'self' requires (no inline style).
 */
export function siteStylesheet(accent: string | undefined): string {
  const rules = [
    '.site-links{border-bottom:1px solid var(--color-slate-200,#e2e8f0)}',
    '.site-links ul{margin:0 auto;display:flex;flex-wrap:wrap;gap:.25rem 1.25rem;max-width:64rem;padding:.5rem 1rem;list-style:none;font-size:.875rem;line-height:1.25rem}',
    '.site-links a{color:var(--color-slate-700,#334155);font-weight:500;text-underline-offset:4px}',
    '.site-links a:hover{text-decoration:underline}',
    '.site-footer-text{margin:0 auto;max-width:64rem;padding:0 1rem 2rem;font-size:.875rem;line-height:1.5rem;color:var(--color-slate-600,#475569);white-space:pre-line}',
    '@media (min-width:40rem){.site-links ul,.site-footer-text{padding-left:1.5rem;padding-right:1.5rem}}',
    '@media (prefers-color-scheme:dark){.site-links{border-color:var(--color-slate-800,#1e293b)}.site-links a{color:var(--color-slate-300,#cbd5e1)}.site-footer-text{color:var(--color-slate-400,#94a3b8)}}',
  ];
  if (accent !== undefined) {
    rules.push(
      `:root{--color-blue-600:#${accent};--color-blue-700:#${accent};--color-blue-800:color-mix(in oklab,#${accent} 80%,black)}`,
      `@media (prefers-color-scheme:dark){:root{--color-blue-300:color-mix(in oklab,#${accent} 45%,white);--color-blue-400:color-mix(in oklab,#${accent} 60%,white)}}`,
    );
  }
  return rules.join('\n') + '\n';
}
