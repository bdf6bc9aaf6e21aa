import { profileGroups } from './ProfileGroup.tsx';

/** Links to the profile screen's groups and lists, beside them on a wide screen (hidden on a phone, where they follow one another). */
export function ProfileNav({ lists }: { lists: Array<{ href: string; title: string }> }) {
  const links = [
    ...profileGroups.slice(0, -1).map((group) => ({ href: `#${group.id}`, title: group.title })),
    ...lists,
    { href: `#${profileGroups.at(-1)!.id}`, title: profileGroups.at(-1)!.title },
  ];
  return (
    <nav aria-label="Profile sections" className="profile-nav">
      <ul className="flex flex-col gap-1">
        {links.map((link) => (
          <li key={link.href}>
            <a href={link.href} className="profile-nav-link">
              {link.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
