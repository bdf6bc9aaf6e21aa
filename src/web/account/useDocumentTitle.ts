import { useEffect } from 'react';

/** Names the browser tab after the screen ("Login · Inkwell"), so history and screen readers say where you are. */
export function useDocumentTitle(screen: string): void {
  useEffect(() => {
    document.title = `${screen} · Inkwell`;
  }, [screen]);
}
