import { useEffect, useId, useRef, type ReactNode } from 'react';

/** A native modal dialog: focus trap, Escape to close and the backdrop come from the browser. */
export function Dialog({ title, onClose, children, wide }: { title: string; onClose: () => void; children: ReactNode; wide?: boolean }) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  useEffect(() => {
    const dialog = ref.current;
    if (dialog && !dialog.open) {
      dialog.showModal();
      // showModal focuses the first control (the close button); the primary action should have it.
      dialog.querySelector<HTMLElement>('[data-autofocus]')?.focus();
    }
    return () => dialog?.close();
  }, []);
  return (
    <dialog
      ref={ref}
      className={wide ? 'dialog dialog-wide' : 'dialog'}
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        onClose();
      }}
    >
      {/* A div, not a header: inside a page's banner (the top bar's panels) a header would be a banner in a banner. */}
      <div className="dialog-header">
        <h2 id={titleId}>{title}</h2>
        <button type="button" className="ghost" onClick={onClose} aria-label="Close">
          ✕ <kbd>Esc</kbd>
        </button>
      </div>
      {children}
    </dialog>
  );
}

export function ErrorNote({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <p className="error-note" role="alert">
      {message}
    </p>
  );
}

/** A line saying what just happened, read out politely; nothing when there is nothing to say. */
export function StatusNote({ message, testId }: { message: string | null | undefined; testId?: string }) {
  if (!message) return null;
  return (
    <p className="notice" role="status" data-testid={testId}>
      {message}
    </p>
  );
}

export function ConfirmDialog({
  title,
  message,
  confirmLabel,
  onConfirm,
  onClose,
  danger,
}: {
  title: string;
  message: string;
  confirmLabel: string;
  onConfirm: () => void;
  onClose: () => void;
  danger?: boolean;
}) {
  return (
    <Dialog title={title} onClose={onClose}>
      <p className="dialog-message">{message}</p>
      <div className="dialog-actions">
        <button type="button" className="secondary big" onClick={onClose} data-autofocus>
          Keep working
        </button>
        <button type="button" className={danger ? 'danger big' : 'primary big'} onClick={onConfirm}>
          {confirmLabel}
        </button>
      </div>
    </Dialog>
  );
}
