import type { ReactNode } from 'react';
import { FormCard } from '../components/FormCard.tsx';

/** The frame every account screen sits in. */
export function AccountCard({ title, wide, children }: { title: string; wide?: boolean; children: ReactNode }) {
  return (
    <FormCard title={title} headingId="account-card-title" {...(wide ? { wide } : {})}>
      {children}
    </FormCard>
  );
}
