import type { Kysely } from 'kysely';
import type { DatabaseSchema } from '../db/schema.ts';
import type { NavigationLink, SettingsPatch, SiteSettings } from '../../shared/siteSettings.ts';

/** The first values: what the site shows until an owner changes a setting (SITE_TITLE, SITE_DESCRIPTION). */
export type FirstSettings = Pick<SiteSettings, 'title' | 'description'>;

type Row = DatabaseSchema['site_settings'];

/** The settings row (migration 0840) and the first values standing in for what was never changed. */
export function createSettingsStore(db: Kysely<DatabaseSchema>, first: FirstSettings) {
  const toSettings = (row: Row | undefined): SiteSettings => ({
    title: row?.title ?? first.title,
    description: row?.description ?? first.description,
    iconUrl: row?.icon_url ?? null,
    accentColor: row?.accent_color ?? null,
    navigation: row?.navigation ? (JSON.parse(row.navigation) as NavigationLink[]) : [],
    footer: row?.footer ?? '',
  });

  return {
    async read(): Promise<SiteSettings> {
      return toSettings(await db.selectFrom('site_settings').selectAll().where('id', '=', 1).executeTakeFirst());
    },
    /** Writes the patch's fields in `trx` (the row is made by the first change); others keep theirs. */
    async write(trx: Kysely<DatabaseSchema>, patch: SettingsPatch, at: number): Promise<void> {
      const columns: Partial<Row> = { updated_at: at };
      if (patch.title !== undefined) columns.title = patch.title;
      if (patch.description !== undefined) columns.description = patch.description;
      if (patch.iconUrl !== undefined) columns.icon_url = patch.iconUrl;
      if (patch.accentColor !== undefined) columns.accent_color = patch.accentColor;
      if (patch.navigation !== undefined) columns.navigation = JSON.stringify(patch.navigation);
      if (patch.footer !== undefined) columns.footer = patch.footer;
      await trx
        .insertInto('site_settings')
        .values({ id: 1, ...columns, updated_at: at })
        .onConflict((conflict) => conflict.column('id').doUpdateSet(columns))
        .execute();
    },
  };
}
