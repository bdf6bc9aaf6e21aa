import type { FastifyPluginAsync } from 'fastify';
import { requires } from '../http/apiScope.ts';
import { callerOf, type Caller } from '../http/callerAuth.ts';
import { sendProblem } from '../http/problem.ts';
import { SITE_STYLESHEET_PATH, siteStylesheet } from './siteFrame.ts';
import { ICON_URL_MESSAGE, parseSettingsPatch } from '../../shared/siteSettingsSchema.ts';
import type { SettingsPatch, SiteSettings } from '../../shared/siteSettings.ts';

export const SETTINGS_REFUSAL = 'Only an owner can change the site settings.';

/** GET /settings (anyone) and PATCH /settings (owners), inside the /api scope. */
export function settingsRoutes(deps: {
  /** This site's origin (PUBLIC_URL): an http:// icon must be one of its uploads. */
  publicUrl: string;
  current: () => Promise<SiteSettings>;
  update: (actor: Caller, patch: SettingsPatch) => Promise<SiteSettings>;
}): FastifyPluginAsync {
  return async (app) => {
    // Never kept by a browser or a cache between: a change must show on the next read.
    app.get('/settings', async (_request, reply) =>
      reply.header('cache-control', 'no-cache').send(await deps.current()),
    );

    app.patch('/settings', requires('site:configure', SETTINGS_REFUSAL), async (request, reply) => {
      const parsed = parseSettingsPatch(request.body);
      if (!parsed.success) {
        const [first] = parsed.errors;
        return sendProblem(reply, 400, first?.message ?? 'The settings are not valid.', parsed.errors);
      }
      // The shape of an upload's URL is checked by the schema; that it is this site's, here.
      const icon = parsed.data.iconUrl;
      if (icon?.startsWith('http:') && new URL(icon).origin !== new URL(deps.publicUrl).origin) {
        const error = { field: 'iconUrl', message: ICON_URL_MESSAGE };
        return sendProblem(reply, 400, error.message, [error]);
      }
      const settings = await deps.update(callerOf(request), parsed.data);
      return reply.header('cache-control', 'no-store').send(settings);
    });
  };
}

/**
 * GET /site.css?accent=rrggbb: made from its URL alone (no read), so it may be kept a day; a
 * new accent is a new URL. Any other accent is a 404, so nothing made up is served.
 */
export const siteStylesheetRoutes: FastifyPluginAsync = async (app) => {
  app.get(SITE_STYLESHEET_PATH, async (request, reply) => {
    const { accent } = request.query as { accent?: unknown };
    if (accent !== undefined && (typeof accent !== 'string' || !/^[0-9a-f]{6}$/.test(accent))) {
      return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    }
    return reply
      .header('cache-control', 'public, max-age=86400')
      .type('text/css; charset=utf-8')
      .send(siteStylesheet(accent));
  });
};
