import { useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { Field } from '../../../components/ui/field.tsx';
import * as css from './auth.css.ts';

/** A password field with a show/hide switch (typing a password on a phone is error-prone). */
export function PasswordField(props: { label: ReactNode; error?: string | undefined } & InputHTMLAttributes<HTMLInputElement>) {
  const [shown, setShown] = useState(false);
  return (
    <div className={css.passwordRow}>
      <Field {...props} className={css.withReveal} type={shown ? 'text' : 'password'} />
      <button type="button" className={css.reveal} onClick={() => setShown((s) => !s)} aria-pressed={shown}>
        {shown ? <Trans>隐藏</Trans> : <Trans>显示</Trans>}
      </button>
    </div>
  );
}
