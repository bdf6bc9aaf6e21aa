import { useEffect, useRef } from 'react';

/**
 * A <dialog> shown modally while `open`: showModal() makes the page behind it inert and, on
 * close, the browser hands focus back to what had it. Returns the ref to put on the <dialog>.
 */
export function useModalDialog(open: boolean) {
  const dialogRef = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return dialogRef;
}
