import type { ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { Page } from '../../../components/ui/page.tsx';
import * as css from '../../../components/ui/ui.css.ts';

/** A screen that a later release builds: it says so plainly, in both languages. */
export function Placeholder({ title, root }: { title: ReactNode; root?: boolean }) {
  return (
    <Page title={title} root={root ?? false}>
      <section className={css.card} data-testid="placeholder">
        <p>
          <Trans>此页面正在建设中，将在后续版本提供。</Trans>
        </p>
        <p className={css.muted}>
          <Trans>这是占位页面：这里暂时没有任何数据或操作。</Trans>
        </p>
      </section>
    </Page>
  );
}
