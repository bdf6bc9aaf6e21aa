/**
 * The site settings an owner changes from /admin (DESIGN.md §9.6): the wire type of
 * GET and PATCH /api/settings and the one source of each limit, shared by the server (which
 * enforces them, siteSettingsSchema.ts) and the admin screen (which shows them beside its fields).
 */
export interface SiteSettings {
  title: string;
  description: string;
  /** `<link rel="icon">`: an uploaded image's URL or an https URL; null: the built-in icon. */
  iconUrl: string | null;
  /** `#rrggbb`, the accent of links, buttons and the ink mark; null: the theme's own blue. */
  accentColor: string | null;
  /** Links beside Home in the masthead, in this order. */
  navigation: NavigationLink[];
  /** Plain text at the foot of every page ('' for none). */
  footer: string;
}

export interface NavigationLink {
  label: string;
  /** A path of this site (`/about`) or an http(s) URL. */
  url: string;
}

/** The same as SITE_TITLE and SITE_DESCRIPTION allow (config.ts), so the first values always fit. */
export const SETTINGS_TITLE_MAX_LENGTH = 100;
export const SETTINGS_DESCRIPTION_MAX_LENGTH = 300;
export const SETTINGS_FOOTER_MAX_LENGTH = 500;
export const SETTINGS_NAVIGATION_MAX_LINKS = 8;
export const SETTINGS_LABEL_MAX_LENGTH = 40;
export const SETTINGS_URL_MAX_LENGTH = 2048;

export const SETTINGS_FIELDS = ['title', 'description', 'iconUrl', 'accentColor', 'navigation', 'footer'] as const;
export type SettingsField = (typeof SETTINGS_FIELDS)[number];

/** A PATCH /api/settings body: any of the fields (siteSettingsSchema.ts checks it). */
export type SettingsPatch = Partial<SiteSettings>;
