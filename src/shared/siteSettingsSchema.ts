import { z } from 'zod';
import type { FieldError } from './fieldError.ts';
import { characterCount } from './moderation.ts';
import { parseUploadedImageUrl } from './imageUrls.ts';
import {
  SETTINGS_DESCRIPTION_MAX_LENGTH,
  SETTINGS_FIELDS,
  SETTINGS_FOOTER_MAX_LENGTH,
  SETTINGS_LABEL_MAX_LENGTH,
  SETTINGS_NAVIGATION_MAX_LINKS,
  SETTINGS_TITLE_MAX_LENGTH,
  SETTINGS_URL_MAX_LENGTH,
  type SettingsPatch,
} from './siteSettings.ts';

/**
 * The rules of a PATCH /api/settings body (DESIGN.md §9.6), with the limits of siteSettings.ts:
 * the server's check, apart from the wire type so the admin screen's code carries no zod.
 */

// PostgreSQL text cannot hold NUL, and a lone surrogate has no UTF-8 form (as articleSchema.ts).
const isStorableText = (value: string) => !value.includes('\u0000') && value.isWellFormed();
// A one-line field: a line break or control character would break a <title> or a mail subject.
const isOneLine = (value: string) => !/[\p{Cc}\u2028\u2029]/u.test(value);
// The URL parser drops tabs and newlines and accepts spaces: an address a person means has none.
const hasNoSpace = (value: string) => !/[\s\p{Cc}]/u.test(value);

function isHttpUrl(value: string, protocols: readonly string[]): boolean {
  if (!hasNoSpace(value) || !URL.canParse(value)) return false;
  const url = new URL(value);
  return protocols.includes(url.protocol) && url.hostname !== '';
}

/** A site path (`/about`, not `//host`, which a browser reads as another host) or an http(s) URL. */
export function isNavigationUrl(value: string): boolean {
  if (value.startsWith('/')) return !value.startsWith('//') && !value.startsWith('/\\') && hasNoSpace(value);
  return isHttpUrl(value, ['http:', 'https:']);
}

/** An https URL, or an uploaded image's URL (`{origin}/images/{id}/{w}x{h}.jpg`, http on a local site). */
export function isIconUrl(value: string): boolean {
  if (isHttpUrl(value, ['https:'])) return true;
  return isHttpUrl(value, ['http:']) && parseUploadedImageUrl(value) !== null;
}

export const ICON_URL_MESSAGE = 'Icon URL must be an uploaded image or an https:// address.';

const text = (label: string) => z.string({ error: `${label} must be text.` });

const oneLine = (label: string, max: number, required: boolean) =>
  text(label)
    .trim()
    .refine((value) => !required || value !== '', { error: `${label} is required.`, abort: true })
    .refine(isStorableText, { error: `${label} contains a character that cannot be stored.`, abort: true })
    .refine(isOneLine, { error: `${label} must be one line.`, abort: true })
    .refine((value) => characterCount(value) <= max, { error: `${label} must be at most ${max} characters.` });

const settingsPatchSchema = z.strictObject(
  {
    title: oneLine('Title', SETTINGS_TITLE_MAX_LENGTH, true).optional(),
    description: oneLine('Description', SETTINGS_DESCRIPTION_MAX_LENGTH, false).optional(),
    iconUrl: text('Icon URL')
      .trim()
      .max(SETTINGS_URL_MAX_LENGTH, { error: `Icon URL must be at most ${SETTINGS_URL_MAX_LENGTH} characters.` })
      .refine((value) => value === '' || isIconUrl(value), {
        error: ICON_URL_MESSAGE,
      })
      .transform((value) => (value === '' ? null : value))
      .nullable()
      .optional(),
    accentColor: text('Accent colour')
      .trim()
      .refine((value) => value === '' || /^#[0-9a-fA-F]{6}$/.test(value), {
        error: 'Accent colour must be a colour like #1d4ed8.',
      })
      .transform((value) => (value === '' ? null : value.toLowerCase()))
      .nullable()
      .optional(),
    navigation: z
      .array(
        z.strictObject(
          {
            label: oneLine('A link’s label', SETTINGS_LABEL_MAX_LENGTH, true),
            url: text('A link’s URL')
              .trim()
              .refine((value) => value !== '', { error: 'A link’s URL is required.', abort: true })
              .max(SETTINGS_URL_MAX_LENGTH, {
                error: `A link’s URL must be at most ${SETTINGS_URL_MAX_LENGTH} characters.`,
                abort: true,
              })
              .refine(isNavigationUrl, {
                error: 'A link’s URL must be a path of this site starting with / or an http:// or https:// address.',
              }),
          },
          { error: 'Each link must have a label and a URL.' },
        ),
        { error: 'Navigation must be a list of links.' },
      )
      .max(SETTINGS_NAVIGATION_MAX_LINKS, {
        error: `Navigation can have at most ${SETTINGS_NAVIGATION_MAX_LINKS} links.`,
      })
      .optional(),
    footer: text('Footer')
      .trim()
      .refine(isStorableText, { error: 'Footer contains a character that cannot be stored.', abort: true })
      .refine((value) => characterCount(value) <= SETTINGS_FOOTER_MAX_LENGTH, {
        error: `Footer must be at most ${SETTINGS_FOOTER_MAX_LENGTH} characters.`,
      })
      .optional(),
  },
  { error: 'The settings must be an object.' },
);

export type SettingsPatchResult = { success: true; data: SettingsPatch } | { success: false; errors: FieldError[] };

/**
 * Validates a PATCH body; every problem comes back as its field (`navigation.1.url` for one
 * link's) and a sentence a person can read, one per field.
 */
export function parseSettingsPatch(body: unknown): SettingsPatchResult {
  const result = settingsPatchSchema.safeParse(body);
  if (result.success) {
    const data = Object.fromEntries(Object.entries(result.data).filter(([, value]) => value !== undefined));
    return { success: true, data: data as SettingsPatch };
  }
  const errors: FieldError[] = [];
  for (const issue of result.error.issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        const where = issue.path.map(String).join('.');
        errors.push({
          field: where === '' ? key : `${where}.${key}`,
          message:
            where === ''
              ? `${key} cannot be set: the settings are ${SETTINGS_FIELDS.join(', ')}.`
              : `${key} cannot be set: a link has only a label and a URL.`,
        });
      }
    } else {
      const field = issue.path.map(String).join('.') || 'body';
      if (!errors.some((error) => error.field === field)) errors.push({ field, message: issue.message });
    }
  }
  return { success: false, errors };
}
