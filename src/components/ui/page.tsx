import type { ReactNode } from 'react';
import { useRouter } from '@tanstack/react-router';
import { useLingui } from '@lingui/react/macro';
import * as css from './ui.css.ts';

/** A screen: a sticky header with the title (and a back button unless `root`), then the content. */
export function Page({ title, root, action, children }: { title: ReactNode; root?: boolean; action?: ReactNode; children: ReactNode }) {
  const router = useRouter();
  const { t } = useLingui();
  const back = () => (window.history.length > 1 ? router.history.back() : void router.navigate({ to: '/' }));
  return (
    <main className={css.page}>
      <header className={css.header}>
        {root ? (
          <span />
        ) : (
          <button type="button" className={css.iconButton} onClick={back} aria-label={t`返回`}>
            <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
              <path d="M15 18l-6-6 6-6" />
            </svg>
          </button>
        )}
        <h1 className={css.headerTitle}>{title}</h1>
        {action ?? <span />}
      </header>
      {children}
    </main>
  );
}
