import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { rolesMessages } from '../../shared/invitations.ts';
import { can, type Role } from '../../shared/roles.ts';
import { commentTexts } from '../../shared/comments.ts';
import { CommentsQueueSection } from '../comments/CommentsQueueSection.tsx';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { AuditLogSection } from '../moderation/AuditLogSection.tsx';
import { mayHandleReports, mayModerate, mayReadAudit, mayReview } from '../moderation/mayModerate.ts';
import { moderationTexts } from '../moderation/moderationTexts.ts';
import { ReportsSection } from '../moderation/ReportsSection.tsx';
import { ReviewSection } from '../moderation/ReviewSection.tsx';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { InvitationsSection } from './InvitationsSection.tsx';
import { NewsletterSection } from './NewsletterSection.tsx';
import { FediverseSection, readFediverseHandle } from './FediverseSection.tsx';
import { siteInfo } from '../components/siteInfo.ts';
import { MembersSection } from './MembersSection.tsx';
import { PostsSection } from './PostsSection.tsx';
import { SettingsSection, settingsTexts } from './SettingsSection.tsx';
import { postsTexts } from './postsTexts.ts';
import { useRole } from '../auth/useRole.ts';

/**
 * `/admin`: members and invitations, for editors and owners (docs/product.md, Roles). Anyone
 * else gets the 404 page: the screen's existence is no business of theirs. The server checks
 * every call itself; this only decides what to show.
 */
export function AdminPage() {
  const role = useRole();
  // Still finding out who is signed in: nothing yet, rather than a 404 that flickers away.
  if (role === undefined) return null;
  if (role === null || !can(role, 'members:manage')) return <NotFoundPage />;
  return <Administration actor={role} />;
}

type Tab = 'members' | 'posts' | 'review' | 'reports' | 'comments' | 'log' | 'newsletter' | 'fediverse' | 'settings';

/** The tabs a role can use, in order: the others are not offered (the server refuses them anyway). */
function tabsFor(actor: Role): { id: Tab; label: string; panel: () => ReactNode }[] {
  return [
    {
      id: 'members' as const,
      label: moderationTexts.members,
      panel: () => (
        <div className="flex flex-col gap-10">
          <MembersSection actor={actor} />
          <InvitationsSection actor={actor} />
        </div>
      ),
    },
    // Every article of every author and status (decision 0820): editors and owners.
    ...(mayModerate(actor) ? [{ id: 'posts' as const, label: postsTexts.tab, panel: () => <PostsSection /> }] : []),
    ...(mayReview(actor)
      ? [{ id: 'review' as const, label: moderationTexts.review, panel: () => <ReviewSection /> }]
      : []),
    ...(mayHandleReports(actor)
      ? [{ id: 'reports' as const, label: moderationTexts.reports, panel: () => <ReportsSection /> }]
      : []),
    ...(can(actor, 'comment:moderate')
      ? [{ id: 'comments' as const, label: commentTexts.heading, panel: () => <CommentsQueueSection /> }]
      : []),
    // Newsletter (DESIGN.md §9.3): editors and owners, when the site has one.
    ...(siteInfo().newsletter === true
      ? [{ id: 'newsletter' as const, label: 'Newsletter', panel: () => <NewsletterSection /> }]
      : []),
    // Fediverse (DESIGN.md §9.4): editors and owners, when the blog federates.
    ...fediverseTab(),
    ...(mayReadAudit(actor)
      ? [{ id: 'log' as const, label: moderationTexts.log, panel: () => <AuditLogSection /> }]
      : []),
    // Site settings (DESIGN.md §9.6): owners only.
    ...(can(actor, 'site:configure')
      ? [{ id: 'settings' as const, label: settingsTexts.tab, panel: () => <SettingsSection /> }]
      : []),
  ];
}

function fediverseTab() {
  const handle = readFediverseHandle();
  return handle
    ? [{ id: 'fediverse' as const, label: 'Fediverse', panel: () => <FediverseSection handle={handle} /> }]
    : [];
}

/** The sections as tabs; the open one is in the address (`?tab=review`), so it can be linked and reloaded. */
function Administration({ actor }: { actor: Role }) {
  useDocumentTitle(rolesMessages.admin);
  const [search, setSearch] = useSearchParams();
  const tabs = tabsFor(actor);
  const current = tabs.find((tab) => tab.id === search.get('tab')) ?? tabs[0]!;
  const listRef = useRef<HTMLDivElement>(null);

  const select = (tab: Tab) => setSearch(tab === 'members' ? {} : { tab }, { replace: true });

  // Arrow keys move between tabs (the WAI-ARIA tabs pattern); Tab goes on into the panel.
  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const index = tabs.findIndex((tab) => tab.id === current.id);
    const next = tabs[(index + step + tabs.length) % tabs.length]!;
    select(next.id);
    listRef.current?.querySelector<HTMLElement>(`#admin-tab-${next.id}`)?.focus();
  }

  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-6 py-6">
      <h1 className="text-3xl font-bold">{rolesMessages.admin}</h1>
      <div
        ref={listRef}
        role="tablist"
        aria-label={moderationTexts.tabsLabel}
        onKeyDown={onKeyDown}
        className="-mx-4 flex gap-1 overflow-x-auto border-b border-slate-200 px-4 dark:border-slate-800"
      >
        {tabs.map((tab) => {
          const selected = tab.id === current.id;
          return (
            <button
              key={tab.id}
              id={`admin-tab-${tab.id}`}
              type="button"
              role="tab"
              aria-selected={selected}
              aria-controls="admin-panel"
              tabIndex={selected ? 0 : -1}
              onClick={() => select(tab.id)}
              className={`-mb-px shrink-0 border-b-2 px-3 py-2 font-medium ${
                selected
                  ? 'border-blue-700 text-blue-800 dark:border-blue-400 dark:text-blue-300'
                  : 'border-transparent text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-slate-100'
              }`}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div id="admin-panel" role="tabpanel" aria-labelledby={`admin-tab-${current.id}`}>
        {current.panel()}
      </div>
    </div>
  );
}
