/** The site settings' one row (migration 0840). Only src/server/settings queries it. */
export interface SettingsTables {
  site_settings: {
    /** Always 1. */
    id: number;
    /** null: not changed yet, SITE_TITLE stands (and so for every column). */
    title: string | null;
    description: string | null;
    icon_url: string | null;
    accent_color: string | null;
    /** JSON: [{label, url}]. */
    navigation: string | null;
    footer: string | null;
    /** Epoch milliseconds. */
    updated_at: number;
  };
}
