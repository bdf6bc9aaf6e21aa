import type { Kysely } from 'kysely';
import type { Database } from '../db/database.ts';
import type { DatabaseSchema } from '../db/schema.ts';
import type { Caller } from '../http/callerAuth.ts';
import type { AuditEvent } from '../../shared/moderation.ts';
import { SETTINGS_FIELDS, type SettingsPatch, type SiteSettings } from '../../shared/siteSettings.ts';
import { createSettingsStore, type FirstSettings } from './settingsStore.ts';
import { settingsRoutes, siteStylesheetRoutes } from './settingsRoutes.ts';

/** The audit event of a change: who, and which fields (their values are in the settings themselves). */
export type SettingsEvent = AuditEvent<'settings.change', 'site'>;

/**
 * The site's name and description as the features that show them read them (mails, feed, page
 * heads, the actor): always the latest settings this process has read, which it reads afresh at
 * the start of every request when the read version moved (app.ts). Read at use, never copied.
 */
export interface SiteView {
  readonly title: string;
  readonly description: string;
}

/**
 * Site settings (DESIGN.md §9.6, decision 0840). The settings are kept in memory with the read
 * version (migration 0011) they were read at; `current()` reads the version, one one-row query
 * that the read caches share, and the row again only when it moved: a change through any process
 * sharing the database shows on the next request of every other, with no timer.
 */
export function createSettings(deps: {
  database: Database;
  first: FirstSettings;
  /** PUBLIC_URL. */
  publicUrl: string;
  clock?: (() => number) | undefined;
  recordEvent: (trx: Kysely<DatabaseSchema>, event: SettingsEvent) => Promise<void>;
}) {
  const store = createSettingsStore(deps.database.db, deps.first);
  const now = deps.clock ?? Date.now;
  let latest: SiteSettings = { ...deps.first, iconUrl: null, accentColor: null, navigation: [], footer: '' };
  let stamp: string | null = null;

  async function current(): Promise<SiteSettings> {
    // The version is read before the row: a change landing in between makes the row newer than
    // its stamp, never older, and the next read sees a new stamp and reads the row again.
    const seen = await deps.database.changeStamp();
    if (seen !== null && seen === stamp) return latest;
    const read = await store.read().catch((error: unknown) => {
      // Not migrated yet (the admin command's migrate, a first start): the first values stand.
      if (seen === null) return latest;
      throw error;
    });
    latest = read;
    stamp = seen;
    return read;
  }

  async function update(actor: Caller, patch: SettingsPatch): Promise<SiteSettings> {
    const fields = SETTINGS_FIELDS.filter((field) => patch[field] !== undefined);
    // Nothing to change: nothing written, nothing audited.
    if (fields.length === 0) return current();
    await deps.database.db.transaction().execute(async (trx) => {
      await store.write(trx, patch, now());
      await deps.recordEvent(trx, {
        actorUid: actor.uid,
        action: 'settings.change',
        targetType: 'site',
        targetId: 'settings',
        detail: { fields },
      });
    });
    return current();
  }

  /** `base` (config.site) with its title and description the latest settings', read at each use. */
  function live<T extends SiteView>(base: T): T {
    return Object.defineProperties(
      { ...base },
      {
        title: { get: () => latest.title, enumerable: true },
        description: { get: () => latest.description, enumerable: true },
      },
    );
  }

  return {
    current,
    /** The settings as this process last read them (what `current()` last answered). */
    latest: () => latest,
    live,
    update,
    /** GET and PATCH /api/settings, inside the /api scope. */
    routes: settingsRoutes({ publicUrl: deps.publicUrl, current, update }),
    /** GET /site.css (the settings' stylesheet, siteFrame.ts); register without a prefix. */
    pageRoutes: siteStylesheetRoutes,
  };
}

export type Settings = ReturnType<typeof createSettings>;
