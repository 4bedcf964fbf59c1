import type { ReactNode } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { Trans } from '@lingui/react/macro';
import * as css from './dialog.css.ts';
import { button } from './ui.css.ts';

/** Asks before a destructive or session-ending action. */
export function ConfirmDialog(props: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: ReactNode;
  description: ReactNode;
  confirmLabel: ReactNode;
  onConfirm: () => void;
  busy?: boolean;
  /** The confirm button is off (what the choice below asks is not valid yet). */
  confirmDisabled?: boolean;
  /** A choice the action takes (radios), between the question and the buttons. */
  children?: ReactNode;
}) {
  return (
    <Dialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={css.overlay} />
        <Dialog.Content className={css.content}>
          <Dialog.Title className={css.title}>{props.title}</Dialog.Title>
          <Dialog.Description className={css.description}>{props.description}</Dialog.Description>
          {props.children}
          <div className={css.actions}>
            <Dialog.Close asChild>
              <button type="button" className={button.secondary}>
                <Trans>取消</Trans>
              </button>
            </Dialog.Close>
            <button type="button" className={button.primary} disabled={props.busy || props.confirmDisabled} onClick={props.onConfirm}>
              {props.confirmLabel}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
