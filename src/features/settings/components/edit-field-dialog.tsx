import { useState, type FormEvent } from 'react';
import * as Dialog from '@radix-ui/react-dialog';
import { useSetAtom } from 'jotai';
import { Trans } from '@lingui/react/macro';
import type { Profile } from '../../../../contract/account.ts';
import type { SetInfoField } from '../../../../contract/rules.ts';
import { write } from '../../../shared/query.ts';
import { errorText } from '../../../lib/http.ts';
import { userAtom } from '../../../state/session.ts';
import { Field } from '../../../components/ui/field.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import * as dialog from '../../../components/ui/dialog.css.ts';
import { profileFieldError } from '../validate.ts';

const inputTypes: Record<SetInfoField, string> = { nickname: 'text', avatar: 'url', email: 'email', mobile: 'tel', referrer: 'text' };

/** Edits one profile field in a dialog; the server checks it again and answers the new profile. */
export function EditFieldDialog(props: { field: SetInfoField; label: string; initial: string; onClose: () => void; onSaved: (p: Profile) => void }) {
  const [value, setValue] = useState(props.initial);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const setUser = useSetAtom(userAtom);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = profileFieldError(props.field, value);
    setError(problem ?? '');
    if (problem || busy) return;
    setBusy(true);
    try {
      const profile = await write('userSetInfo', { field: props.field, value: value.trim() });
      setUser((u) => (u ? { ...u, nickname: profile.nickname, avatar: profile.avatar, mobile: profile.mobile, referral: profile.referral } : u));
      props.onSaved(profile);
    } catch (e) {
      setError(errorText(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog.Root open onOpenChange={(open) => !open && props.onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className={dialog.overlay} />
        <Dialog.Content className={dialog.content} aria-describedby={undefined}>
          <Dialog.Title className={dialog.title}>{props.label}</Dialog.Title>
          <form onSubmit={submit} noValidate>
            <Field label={props.label} name={props.field} type={inputTypes[props.field]} value={value} onChange={(e) => setValue(e.target.value)} error={error || undefined} autoFocus />
            <div className={dialog.actions}>
              <Dialog.Close asChild>
                <button type="button" className={ui.button.secondary}>
                  <Trans>取消</Trans>
                </button>
              </Dialog.Close>
              <button type="submit" className={ui.button.primary} disabled={busy}>
                {busy ? <Trans>保存中…</Trans> : <Trans>保存</Trans>}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
