import type { ReactNode } from 'react';

/** The profile screen's groups, in the page's order: the in-page nav links to each (ProfileNav.tsx). */
export const profileGroups = [
  { id: 'profile-about', title: 'About you' },
  { id: 'profile-sign-in', title: 'Signing in' },
  { id: 'profile-notifications', title: 'Notifications' },
  { id: 'profile-danger', title: 'Danger zone' },
] as const;

type GroupId = (typeof profileGroups)[number]['id'];

/** One headed group of the profile screen, as a settings page has them (issue 39). */
export function ProfileGroup({ id, children, danger = false }: { id: GroupId; children: ReactNode; danger?: boolean }) {
  const title = profileGroups.find((group) => group.id === id)!.title;
  return (
    <section
      id={id}
      aria-labelledby={`${id}-heading`}
      className={`profile-group ${danger ? 'profile-group-danger' : ''}`}
    >
      <h2 id={`${id}-heading`} className="profile-group-title">
        {title}
      </h2>
      <div className="flex flex-col gap-4">{children}</div>
    </section>
  );
}
