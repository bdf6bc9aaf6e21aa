import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { primaryButtonClass } from '../components/formStyles.ts';

type Props = Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'disabled'> & {
  busy: boolean;
  children: ReactNode;
  variant?: string;
};

/** A button that shows a spinner and cannot be pressed again while its request runs. */
export function SubmitButton({ busy, children, variant = primaryButtonClass, type = 'submit', ...rest }: Props) {
  return (
    <button type={type} className={variant} disabled={busy} aria-busy={busy} {...rest}>
      {busy && (
        <span
          aria-hidden="true"
          className="size-4 animate-spin rounded-full border-2 border-current border-t-transparent motion-reduce:animate-none"
        />
      )}
      {children}
    </button>
  );
}
