import { describe, expect, it } from 'vitest';
import { fetchedAheadFor, type Visitor } from './codeAhead.ts';
import { screenTable, type ScreenName, type ScreenRecord } from './routes.ts';

/** The screens whose code this visitor's browser fetches when idle. */
const aheadFor = (visitor: Visitor) =>
  (Object.entries(screenTable) as Array<[ScreenName, ScreenRecord]>)
    .filter(([, screen]) => fetchedAheadFor(screen, visitor))
    .map(([name]) => name)
    .sort();

describe('which screens are fetched ahead for whom (issue 41)', () => {
  it('a signed-out reader: the reading screens and the way in, nothing for staff, tags or search', () => {
    expect(aheadFor({ signedIn: false })).toEqual(['article', 'author', 'home', 'login', 'signup']);
  });

  it('a signed-in author adds the profile, not admin; an editor and an owner add admin too', () => {
    expect(aheadFor({ signedIn: true, role: 'author' })).toEqual([
      'article',
      'author',
      'home',
      'login',
      'profile',
      'signup',
    ]);
    expect(aheadFor({ signedIn: true, role: null })).toContain('profile');
    expect(aheadFor({ signedIn: true, role: null })).not.toContain('admin');
    expect(aheadFor({ signedIn: true, role: 'editor' })).toContain('admin');
    expect(aheadFor({ signedIn: true, role: 'owner' })).toContain('admin');
  });

  it('the editor, tag, search and email-link screens are never fetched when idle (only on intent)', () => {
    const idle = new Set(aheadFor({ signedIn: true, role: 'owner' }));
    for (const name of ['editor', 'tag', 'search', 'action', 'resetPassword', 'forgotPassword'] as const)
      expect(idle.has(name)).toBe(false);
  });
});
