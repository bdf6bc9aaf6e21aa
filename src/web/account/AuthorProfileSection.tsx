import { useEffect, useId, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import { Link } from 'react-router';
import { AUTHOR_BIO_MAX_LENGTH, type AuthorProfile } from '../../shared/authorProfile.ts';
import { paths } from '../../shared/routes.ts';
import { AuthorAvatar } from '../components/AuthorAvatar.tsx';
import { UPLOAD_TYPES, uploadImage } from '../api/imagesApi.ts';
import { accountSessionOf } from '../auth/accountSession.ts';
import { useAuth } from '../auth/useAuth.ts';
import { useAuthSession } from '../auth/useAuthSession.ts';
import { authorsApi } from '../api/authorsApi.ts';
import { FormAlert } from '../components/FormAlert.tsx';
import { inputClass, linkClass, secondaryButtonClass } from '../components/formStyles.ts';
import { SubmitButton } from './SubmitButton.tsx';

/** This section's texts (the spec leaves author profiles open; decision 0420). */
const texts = {
  title: 'Author profile',
  intro: 'Your picture and bio appear on your author page and next to your name on your articles.',
  picture: 'Profile picture',
  changePicture: 'Change picture',
  removePicture: 'Remove picture',
  pictureSaved: 'Profile picture updated.',
  pictureRemoved: 'Profile picture removed.',
  pictureFailed: 'The picture could not be uploaded. Use a JPEG, PNG, WebP, AVIF or GIF image and try again.',
  bio: 'Bio',
  bioHint: `Plain text, up to ${AUTHOR_BIO_MAX_LENGTH} characters.`,
  saveBio: 'Save bio',
  bioSaved: 'Bio saved.',
  saveFailed: 'Your profile could not be saved. Please try again.',
  loadFailed: 'Your author profile could not be loaded.',
  viewPage: 'View your author page',
} as const;

type Outcome = { message: string; tone: 'error' | 'success' } | null;

/** The profile screen's picture and bio, shown on the author page (decision 0420). */
export function AuthorProfileSection({ uid }: { uid: string }) {
  const { getIdToken } = useAuth();
  const session = useAuthSession();
  const headingId = useId();
  const bioId = useId();
  const fileInput = useRef<HTMLInputElement>(null);
  const [profile, setProfile] = useState<AuthorProfile | null>(null);
  const [bio, setBio] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);
  const [busy, setBusy] = useState<'picture' | 'bio' | null>(null);

  useEffect(() => {
    let live = true;
    authorsApi.get(uid).then(
      (loaded) => {
        if (!live) return;
        setProfile(loaded);
        setBio(loaded.bio);
      },
      () => live && setOutcome({ message: texts.loadFailed, tone: 'error' }),
    );
    return () => {
      live = false;
    };
  }, [uid]);

  async function changePicture(photoUrl: string | null, done: string) {
    await accountSessionOf(session).updatePhotoUrl(photoUrl);
    setProfile(await authorsApi.get(uid));
    setOutcome({ message: done, tone: 'success' });
  }

  async function upload(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setBusy('picture');
    setOutcome(null);
    try {
      const image = await uploadImage(file, getIdToken);
      await changePicture(image.url, texts.pictureSaved);
    } catch {
      setOutcome({ message: texts.pictureFailed, tone: 'error' });
    } finally {
      setBusy(null);
    }
  }

  async function removePicture() {
    setBusy('picture');
    setOutcome(null);
    try {
      await changePicture(null, texts.pictureRemoved);
    } catch {
      setOutcome({ message: texts.saveFailed, tone: 'error' });
    } finally {
      setBusy(null);
    }
  }

  async function saveBio(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy('bio');
    setOutcome(null);
    try {
      const saved = await authorsApi.setBio(uid, bio, getIdToken);
      setProfile(saved);
      setBio(saved.bio);
      setOutcome({ message: texts.bioSaved, tone: 'success' });
    } catch (error) {
      const field = (error as { fieldErrors?: { message: string }[] }).fieldErrors?.[0];
      setOutcome({ message: field?.message ?? texts.saveFailed, tone: 'error' });
    } finally {
      setBusy(null);
    }
  }

  const length = [...bio.trim()].length;
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 border-t border-slate-200 pt-4 dark:border-slate-800"
    >
      <h3 id={headingId} className="text-base font-semibold">
        {texts.title}
      </h3>
      <p className="text-sm text-slate-700 dark:text-slate-300">{texts.intro}</p>
      <FormAlert message={outcome?.message ?? null} tone={outcome?.tone ?? 'error'} />
      {profile && (
        <>
          <div className="flex items-center gap-4">
            <AuthorAvatar authorId={uid} authorName={profile.name} photoUrl={profile.photoUrl} size="lg" />
            <div className="flex flex-1 flex-col gap-2">
              <input
                ref={fileInput}
                type="file"
                accept={UPLOAD_TYPES.join(',')}
                aria-label={texts.picture}
                className="sr-only"
                tabIndex={-1}
                onChange={(event) => void upload(event)}
              />
              <SubmitButton
                type="button"
                busy={busy === 'picture'}
                variant={secondaryButtonClass}
                onClick={() => fileInput.current?.click()}
              >
                {texts.changePicture}
              </SubmitButton>
              {profile.photoUrl !== null && (
                <button
                  type="button"
                  className={secondaryButtonClass}
                  disabled={busy !== null}
                  onClick={() => void removePicture()}
                >
                  {texts.removePicture}
                </button>
              )}
            </div>
          </div>
          <form onSubmit={(event) => void saveBio(event)} className="flex flex-col gap-2">
            <label htmlFor={bioId} className="block text-sm font-medium">
              {texts.bio}
            </label>
            <textarea
              id={bioId}
              name="bio"
              dir="auto"
              rows={5}
              value={bio}
              onChange={(event) => setBio(event.target.value)}
              aria-describedby={`${bioId}-hint`}
              className={inputClass}
            />
            <p
              id={`${bioId}-hint`}
              className={`text-sm ${length > AUTHOR_BIO_MAX_LENGTH ? 'text-red-700 dark:text-red-400' : 'text-slate-600 dark:text-slate-400'}`}
            >
              {texts.bioHint} {length}/{AUTHOR_BIO_MAX_LENGTH}
            </p>
            <SubmitButton busy={busy === 'bio'} variant={secondaryButtonClass}>
              {texts.saveBio}
            </SubmitButton>
          </form>
          <Link to={paths.author(profile.slug)} className={linkClass}>
            {texts.viewPage}
          </Link>
        </>
      )}
    </section>
  );
}
