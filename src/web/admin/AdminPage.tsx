import { rolesMessages } from '../../shared/invitations.ts';
import { can, type Role } from '../../shared/roles.ts';
import { useDocumentTitle } from '../components/useDocumentTitle.ts';
import { NotFoundPage } from '../pages/NotFoundPage.tsx';
import { InvitationsSection } from './InvitationsSection.tsx';
import { MembersSection } from './MembersSection.tsx';
import { useRole } from './useRole.ts';

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

function Administration({ actor }: { actor: Role }) {
  useDocumentTitle(rolesMessages.admin);
  return (
    <div className="mx-auto flex max-w-4xl flex-col gap-10 py-6">
      <h1 className="text-3xl font-bold">{rolesMessages.admin}</h1>
      <MembersSection actor={actor} />
      <InvitationsSection actor={actor} />
    </div>
  );
}
