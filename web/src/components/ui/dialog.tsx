/** Accessible modal dialog on radix-ui (focus trap, Escape, labelled title). */
import { Dialog as D } from 'radix-ui';
import type { ReactNode } from 'react';

export function Dialog({
  open,
  onOpenChange,
  title,
  description,
  children,
  footer,
  trigger,
  wide = false,
}: {
  open?: boolean;
  onOpenChange?: (open: boolean) => void;
  title: string;
  description?: ReactNode;
  children?: ReactNode;
  footer?: ReactNode;
  trigger?: ReactNode;
  wide?: boolean;
}) {
  return (
    <D.Root open={open} onOpenChange={onOpenChange}>
      {trigger && <D.Trigger asChild>{trigger}</D.Trigger>}
      <D.Portal>
        <D.Overlay className="dialog-overlay" />
        <D.Content className={`dialog-content${wide ? ' dialog-wide' : ''}`}>
          <div className="dialog-header">
            <D.Title className="dialog-title">{title}</D.Title>
            <D.Close className="icon-button" aria-label="Close">
              ✕
            </D.Close>
          </div>
          {description ? <D.Description className="dialog-description">{description}</D.Description> : <D.Description className="sr-only">{title}</D.Description>}
          {children}
          {footer && <div className="dialog-footer">{footer}</div>}
        </D.Content>
      </D.Portal>
    </D.Root>
  );
}

/** A confirm dialog: returns the choice through callbacks. */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  message,
  confirmLabel = 'Confirm',
  danger = false,
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  message: ReactNode;
  confirmLabel?: string;
  danger?: boolean;
  onConfirm: () => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={title}
      description={message}
      footer={
        <>
          <button type="button" className="btn btn-secondary" onClick={() => onOpenChange(false)}>
            Cancel
          </button>
          <button
            type="button"
            className={`btn ${danger ? 'btn-danger' : 'btn-primary'}`}
            onClick={() => {
              onOpenChange(false);
              onConfirm();
            }}
          >
            {confirmLabel}
          </button>
        </>
      }
    />
  );
}
