import fs from 'node:fs';
import path from 'node:path';
import { renderToStaticMarkup } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { AuthSession } from './auth/authSession.ts';
import { createIdentityClient } from './auth/identityClient.ts';
import { AuthSessionContext } from './auth/useAuthSession.ts';
import { AuthContext } from './auth/useAuth.ts';
import { AppLayout } from './components/AppLayout.tsx';

// index.html paints the app's frame before any script runs; React's first commit swaps it for
// its own. If the two differ, the page jumps (layout shift) or shows a stale label.
describe('the static frame in index.html', () => {
  const shell = fs.readFileSync(path.join(import.meta.dirname, 'index.html'), 'utf8');
  const frame = /<div id="boot-frame">([\s\S]*?)<\/div>\s*<div id="root"><\/div>/.exec(shell)?.[1] ?? '';
  const withoutLayoutWhitespace = (html: string) => html.replace(/>\s+</g, '><').trim();

  it('is what AppLayout renders while the sign-in state is unknown', () => {
    // A real session that has not restored yet: its state is unknown and it makes no call.
    const session = new AuthSession({
      client: createIdentityClient({ fetch: () => Promise.reject(new Error('no calls expected')), timeoutMs: 1000 }),
    });
    expect(session.state.status).toBe('unknown');
    const rendered = renderToStaticMarkup(
      <MemoryRouter initialEntries={['/']}>
        <AuthSessionContext value={session}>
          <AuthContext value={{ state: session.state, getIdToken: () => session.getIdToken() }}>
            <AppLayout />
          </AuthContext>
        </AuthSessionContext>
      </MemoryRouter>,
    );
    expect(frame).not.toBe('');
    expect(withoutLayoutWhitespace(frame)).toBe(rendered);
  });

  it('stays out of #root, which React owns', () => {
    expect(shell).toContain('<div id="root"></div>');
  });
});
