import type { FormEvent, ReactNode } from 'react';
import { Trans } from '@lingui/react/macro';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import { OfflineBanner } from '../../../shared/offline-banner.tsx';
import { failed } from '../../../shared/query.ts';
import type { BotCopy } from '../bot-copy.ts';
import type { BotTarget } from '../use-bot-target.ts';
import { BotFormFooter, BotFormNotices, BotTargetFields } from './bot-target-fields.tsx';
import { CopiedFrom } from './copied-from.tsx';
import * as styles from './bots.css.ts';

/**
 * Every bot type's create and edit screen around its own fields: the loading and failure states, the
 * notices (no binding, a running bot cannot be edited), the copied bot's figures, the exchange, pair and
 * name, and the save button with the server's refusal. A type's form page gives its title and fields.
 */
export function BotFormShell({
  title,
  target,
  id,
  copy,
  form,
  onSubmit,
  children,
}: {
  title: ReactNode;
  target: BotTarget;
  id: string | undefined;
  copy: BotCopy | undefined;
  form: { failure: string; submitted: boolean; invalid: boolean; busy: boolean };
  onSubmit: (event: FormEvent) => void;
  children: ReactNode;
}) {
  const { bot, bindings, running, market } = target;
  return (
    <Page title={title}>
      <OfflineBanner />
      <LoadState
        loading={target.loading}
        failed={failed(bindings) || (failed(bot) && !target.missing)}
        failedText={<Trans>加载失败。</Trans>}
        onRetry={() => {
          void bindings.refetch();
          void bot.refetch();
        }}
      />
      <BotFormNotices target={target} id={id} />
      <CopiedFrom copy={copy} />
      {!target.loading && !target.noBinding && !target.missing ? (
        <form onSubmit={onSubmit} noValidate>
          <fieldset disabled={running || form.busy} className={styles.plainFieldset}>
            <BotTargetFields target={target} id={id} />
            {children}
            <BotFormFooter form={form} editing={id !== undefined} disabled={running || !market} />
          </fieldset>
        </form>
      ) : null}
    </Page>
  );
}
