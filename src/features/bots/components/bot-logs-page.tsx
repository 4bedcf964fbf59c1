import { useState } from 'react';
import { useNavigate } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { Trans } from '@lingui/react/macro';
import { call, failed, keepPage, loading } from '../../../shared/query.ts';
import { Page } from '../../../components/ui/page.tsx';
import { OfflineBanner } from './offline-banner.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { ActionList } from './action-list.tsx';
import { Pager } from '../../../shared/pager.tsx';
import * as css from '../../../shared/blocks.css.ts';

const PAGE_SIZE = 20;

/** /strategy/logs?id=: a bot's full action log, newest first, paginated; the bot picked from the trader's bots. */
export function BotLogsPage({ id }: { id?: string | undefined }) {
  const navigate = useNavigate();
  const [page, setPage] = useState(1);
  const bots = useQuery(call('userBotList', { page: '1', page_size: '50' }));
  const chosen = id ?? bots.data?.list[0]?.id;
  const actions = useQuery({ ...call('userBotActions', { id: chosen ?? '', page: String(page), page_size: String(PAGE_SIZE) }), ...keepPage, enabled: chosen !== undefined });

  return (
    <Page title={<Trans>策略日志</Trans>}>
      <OfflineBanner />
      <LoadState loading={loading(bots)} failed={failed(bots)} failedText={<Trans>加载失败。</Trans>} onRetry={() => void bots.refetch()} />
      {bots.data && bots.data.list.length === 0 && !id ? <section className={ui.card}><p className={ui.muted}><Trans>还没有策略，也就没有日志。</Trans></p></section> : null}
      {bots.data && bots.data.list.length > 0 ? (
        <fieldset className={css.chips}>
          {bots.data.list.map((b) => (
            <button key={b.id} type="button" className={css.chip} aria-pressed={b.id === chosen} onClick={() => { setPage(1); void navigate({ to: '/strategy/logs', search: { id: b.id }, replace: true }); }}>
              {b.symbol} · {b.name}
            </button>
          ))}
        </fieldset>
      ) : null}
      {chosen ? (
        <section className={ui.card}>
          <LoadState loading={loading(actions)} failed={failed(actions)} failedText={<Trans>日志加载失败。</Trans>} onRetry={() => void actions.refetch()} />
          {actions.data && actions.data.list.length === 0 ? <p className={ui.muted}><Trans>暂无日志。</Trans></p> : null}
          {actions.data ? <ActionList actions={actions.data.list} /> : null}
          {actions.data ? <Pager page={page} pageSize={PAGE_SIZE} total={actions.data.total} onPage={setPage} /> : null}
        </section>
      ) : null}
    </Page>
  );
}
