import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import type { FieldError } from '../../shared/fieldError.ts';
import {
  SETTINGS_DESCRIPTION_MAX_LENGTH,
  SETTINGS_FOOTER_MAX_LENGTH,
  SETTINGS_LABEL_MAX_LENGTH,
  SETTINGS_NAVIGATION_MAX_LINKS,
  SETTINGS_TITLE_MAX_LENGTH,
  SETTINGS_URL_MAX_LENGTH,
  type NavigationLink,
  type SiteSettings,
} from '../../shared/siteSettings.ts';
import { callApi } from '../api/callApi.ts';
import { ApiError } from '../api/apiError.ts';
import { useAuth } from '../auth/useAuth.ts';
import { AdminAlert, adminFailure } from '../components/AdminAlert.tsx';
import { smallButton } from '../components/adminStyles.ts';
import { FormAlert } from '../components/FormAlert.tsx';
import { inputClass, primaryButtonClass } from '../components/formStyles.ts';

/** Texts of the Settings tab (the spec has none of its own for it). */
export const settingsTexts = {
  tab: 'Settings',
  heading: 'Site settings',
  intro: 'What every page shows of the site. A change shows on every page from its next load.',
  title: 'Title',
  description: 'Description',
  iconUrl: 'Icon URL',
  iconHint: 'An uploaded image’s address or an https:// address. Empty: the built-in icon.',
  accentColor: 'Accent colour',
  accentHint: 'A colour like #1d4ed8, for links, buttons and the ink mark. Empty: the theme’s own blue.',
  navigation: 'Navigation links',
  navigationHint: `Shown above the top bar, in this order, at most ${SETTINGS_NAVIGATION_MAX_LINKS}.`,
  label: 'Label',
  url: 'URL',
  urlHint: 'A path of this site such as /tag/bread, or an https:// address.',
  addLink: 'Add a link',
  up: 'Move up',
  down: 'Move down',
  remove: 'Remove',
  footer: 'Footer text',
  footerHint: 'Plain text under every page; line breaks are kept.',
  save: 'Save',
  saving: 'Saving…',
  saved: 'Settings saved.',
  invalid: 'Some settings need a change: see the fields marked below.',
  loadFailed: 'The settings could not be loaded.',
  saveFailed: 'The settings could not be saved.',
};

type Form = Omit<SiteSettings, 'iconUrl' | 'accentColor'> & { iconUrl: string; accentColor: string };

const toForm = (settings: SiteSettings): Form => ({
  ...settings,
  iconUrl: settings.iconUrl ?? '',
  accentColor: settings.accentColor ?? '',
});

const fieldErrorClass = 'mt-1 text-sm text-red-700 dark:text-red-300';

/**
 * Settings (owners, DESIGN.md §9.6): the site's title, description, icon, accent colour,
 * navigation links and footer. The server checks every field; its errors show beside their
 * fields and what was typed stays as it was.
 */
export function SettingsSection() {
  const { getIdToken } = useAuth();
  const [form, setForm] = useState<Form | null>(null);
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<{ text: string; tone: 'error' | 'success' } | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    callApi<SiteSettings>('GET', '/settings').then(
      (settings) => setForm(toForm(settings)),
      () => setMessage({ text: settingsTexts.loadFailed, tone: 'error' }),
    );
  }, []);

  const errorOf = (field: string) => errors.find((error) => error.field === field)?.message;
  const set = (changes: Partial<Form>) => setForm((current) => current && { ...current, ...changes });
  const setLinks = (change: (links: NavigationLink[]) => NavigationLink[]) =>
    setForm((current) => current && { ...current, navigation: change(current.navigation) });

  async function save(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!form) return;
    setBusy(true);
    setMessage(null);
    try {
      const saved = await callApi<SiteSettings>('PATCH', '/settings', { token: getIdToken, body: form });
      setForm(toForm(saved));
      setErrors([]);
      setMessage({ text: settingsTexts.saved, tone: 'success' });
    } catch (caught) {
      // The form keeps what was typed: only the messages change.
      const fieldErrors = caught instanceof ApiError && caught.status === 400 ? caught.fieldErrors : [];
      setErrors(fieldErrors);
      setMessage({
        text: fieldErrors.length > 0 ? settingsTexts.invalid : adminFailure(caught, settingsTexts.saveFailed),
        tone: 'error',
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="settings-heading" className="flex flex-col gap-6">
      <div>
        <h2 id="settings-heading" className="text-xl font-semibold">
          {settingsTexts.heading}
        </h2>
        <p className="mt-1 text-slate-600 dark:text-slate-400">{settingsTexts.intro}</p>
      </div>
      {message?.tone === 'error' ? (
        <AdminAlert message={message.text} />
      ) : (
        <FormAlert message={message?.text ?? null} tone="success" />
      )}
      {form && (
        <form onSubmit={(event) => void save(event)} noValidate className="flex flex-col gap-5">
          <Field label={settingsTexts.title} error={errorOf('title')}>
            {(props) => (
              <input
                {...props}
                value={form.title}
                maxLength={SETTINGS_TITLE_MAX_LENGTH}
                onChange={(event) => set({ title: event.target.value })}
              />
            )}
          </Field>
          <Field label={settingsTexts.description} error={errorOf('description')}>
            {(props) => (
              <input
                {...props}
                value={form.description}
                maxLength={SETTINGS_DESCRIPTION_MAX_LENGTH}
                onChange={(event) => set({ description: event.target.value })}
              />
            )}
          </Field>
          <Field label={settingsTexts.iconUrl} hint={settingsTexts.iconHint} error={errorOf('iconUrl')}>
            {(props) => (
              <input
                {...props}
                type="url"
                dir="ltr"
                value={form.iconUrl}
                maxLength={SETTINGS_URL_MAX_LENGTH}
                onChange={(event) => set({ iconUrl: event.target.value })}
              />
            )}
          </Field>
          <Field label={settingsTexts.accentColor} hint={settingsTexts.accentHint} error={errorOf('accentColor')}>
            {(props) => (
              <div className="flex items-center gap-3">
                <input
                  {...props}
                  dir="ltr"
                  value={form.accentColor}
                  placeholder="#1d4ed8"
                  className={`${inputClass} max-w-40`}
                  onChange={(event) => set({ accentColor: event.target.value })}
                />
                {/^#[0-9a-fA-F]{6}$/.test(form.accentColor) && (
                  <span
                    aria-hidden="true"
                    data-testid="accent-swatch"
                    className="mt-1 h-9 w-9 shrink-0 rounded-md border border-slate-300 dark:border-slate-700"
                    ref={(swatch) => {
                      // A property set from script, not a style attribute: the CSP allows no inline style.
                      swatch?.style.setProperty('background-color', form.accentColor);
                    }}
                  />
                )}
              </div>
            )}
          </Field>
          <NavigationEditor links={form.navigation} setLinks={setLinks} errorOf={errorOf} />
          <Field label={settingsTexts.footer} hint={settingsTexts.footerHint} error={errorOf('footer')}>
            {(props) => (
              <textarea
                {...props}
                rows={3}
                value={form.footer}
                maxLength={SETTINGS_FOOTER_MAX_LENGTH}
                onChange={(event) => set({ footer: event.target.value })}
              />
            )}
          </Field>
          <div>
            <button type="submit" disabled={busy} className={primaryButtonClass.replace('w-full', 'w-auto')}>
              {busy ? settingsTexts.saving : settingsTexts.save}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

interface InputProps {
  id: string;
  className: string;
  dir: 'auto';
  'aria-describedby': string | undefined;
  'aria-invalid': boolean | undefined;
}

/** A label, the input `children` makes with the ids it is given, its hint and its error beside it. */
function Field(props: {
  label: string;
  hint?: string;
  error: string | undefined;
  children: (input: InputProps) => ReactNode;
}) {
  const id = useId();
  const described = [props.hint && `${id}-hint`, props.error && `${id}-error`].filter(Boolean).join(' ');
  return (
    <div>
      <label htmlFor={id} className="block text-sm font-medium">
        {props.label}
      </label>
      {props.children({
        id,
        className: inputClass,
        dir: 'auto',
        'aria-describedby': described === '' ? undefined : described,
        'aria-invalid': props.error ? true : undefined,
      })}
      {props.hint && (
        <p id={`${id}-hint`} className="mt-1 text-sm text-slate-600 dark:text-slate-400">
          {props.hint}
        </p>
      )}
      {props.error && (
        <p id={`${id}-error`} className={fieldErrorClass}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** The navigation links: each a label and a URL, added, removed and moved up or down. */
function NavigationEditor(props: {
  links: NavigationLink[];
  setLinks: (change: (links: NavigationLink[]) => NavigationLink[]) => void;
  errorOf: (field: string) => string | undefined;
}) {
  const { links, setLinks, errorOf } = props;
  const update = (index: number, changes: Partial<NavigationLink>) =>
    setLinks((all) => all.map((link, at) => (at === index ? { ...link, ...changes } : link)));
  const move = (index: number, step: number) =>
    setLinks((all) => {
      const moved = [...all];
      const [link] = moved.splice(index, 1);
      moved.splice(index + step, 0, link!);
      return moved;
    });
  const listError = errorOf('navigation');
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-1 text-sm font-medium">{settingsTexts.navigation}</legend>
      <p className="text-sm text-slate-600 dark:text-slate-400">{settingsTexts.navigationHint}</p>
      {listError && <p className={fieldErrorClass}>{listError}</p>}
      <ol className="flex flex-col gap-4">
        {links.map((link, index) => (
          <li
            key={index}
            data-testid="navigation-link"
            className="flex flex-col gap-3 rounded-md border border-slate-200 p-3 dark:border-slate-800"
          >
            <div className="grid gap-3 sm:grid-cols-[1fr_2fr]">
              <Field label={`${settingsTexts.label} ${index + 1}`} error={errorOf(`navigation.${index}.label`)}>
                {(input) => (
                  <input
                    {...input}
                    value={link.label}
                    maxLength={SETTINGS_LABEL_MAX_LENGTH}
                    onChange={(event) => update(index, { label: event.target.value })}
                  />
                )}
              </Field>
              <Field
                label={`${settingsTexts.url} ${index + 1}`}
                hint={settingsTexts.urlHint}
                error={errorOf(`navigation.${index}.url`)}
              >
                {(input) => (
                  <input
                    {...input}
                    dir="ltr"
                    value={link.url}
                    maxLength={SETTINGS_URL_MAX_LENGTH}
                    onChange={(event) => update(index, { url: event.target.value })}
                  />
                )}
              </Field>
            </div>
            <div className="flex flex-wrap gap-2">
              <button type="button" className={smallButton} disabled={index === 0} onClick={() => move(index, -1)}>
                {settingsTexts.up}
                <span className="sr-only"> {link.label || index + 1}</span>
              </button>
              <button
                type="button"
                className={smallButton}
                disabled={index === links.length - 1}
                onClick={() => move(index, 1)}
              >
                {settingsTexts.down}
                <span className="sr-only"> {link.label || index + 1}</span>
              </button>
              <button
                type="button"
                className={smallButton}
                onClick={() => setLinks((all) => all.filter((_, at) => at !== index))}
              >
                {settingsTexts.remove}
                <span className="sr-only"> {link.label || index + 1}</span>
              </button>
            </div>
          </li>
        ))}
      </ol>
      {links.length < SETTINGS_NAVIGATION_MAX_LINKS && (
        <div>
          <button
            type="button"
            className={smallButton}
            onClick={() => setLinks((all) => [...all, { label: '', url: '' }])}
          >
            {settingsTexts.addLink}
          </button>
        </div>
      )}
    </fieldset>
  );
}
