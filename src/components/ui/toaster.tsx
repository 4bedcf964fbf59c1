import { useAtomValue } from 'jotai';
import { dismissToast, toastsAtom } from '../../lib/toast.ts';
import * as css from './toaster.css.ts';

/** Shows the live toasts; a tap (or Enter / Space on its button) dismisses one early. Errors are announced assertively. */
export function Toaster() {
  const toasts = useAtomValue(toastsAtom);
  return (
    <div className={css.region}>
      {toasts.map((t) => (
        <div key={t.id} role={t.kind === 'error' ? 'alert' : 'status'} data-kind={t.kind} className={css.item}>
          <button type="button" className={css.toast[t.kind]} onClick={t.onTap ?? (() => dismissToast(t.id))}>
            {t.text}
          </button>
        </div>
      ))}
    </div>
  );
}
