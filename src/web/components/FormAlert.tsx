import { useEffect, useRef } from 'react';

/**
 * Where a form says how its request went: errors are announced at once (role="alert") and take
 * the focus, so a keyboard user is where the problem is described.
 */
export function FormAlert({ message, tone }: { message: string | null; tone: 'error' | 'success' }) {
  const messageRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (message !== null && tone === 'error') messageRef.current?.focus();
  }, [message, tone]);

  // The live region stays in the page so screen readers announce the text when it appears.
  return (
    <div role="alert">
      {message !== null && (
        <p
          ref={messageRef}
          tabIndex={-1}
          className={
            tone === 'error'
              ? 'rounded-md border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800 dark:border-red-800 dark:bg-red-950 dark:text-red-200'
              : 'rounded-md border border-green-300 bg-green-50 px-3 py-2 text-sm text-green-800 dark:border-green-800 dark:bg-green-950 dark:text-green-200'
          }
        >
          {message}
        </p>
      )}
    </div>
  );
}
