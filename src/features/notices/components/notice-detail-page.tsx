import { getRouteApi, Link } from '@tanstack/react-router';
import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { call, failed, loading, queryClient } from '../../../shared/query.ts';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import * as css from './notices.css.ts';
import { time } from '../../../shared/format.ts';
import { noticeWords } from '../words.ts';

const route = getRouteApi('/_authed/notice/detail');

/** /notice/detail?id=: one notice (reading it marks it read), with the way to the bot it is about. */
export function NoticeDetailRoute() {
  const search: Record<string, unknown> = route.useSearch();
  const id = typeof search.id === 'number' ? String(search.id) : typeof search.id === 'string' && /^[1-9]\d{0,17}$/.test(search.id) ? search.id : '';
  return <NoticeDetailPage key={id} id={id} />;
}

function NoticeDetailPage({ id }: { id: string }) {
  const { i18n } = useLingui();
  // No id (or not a number): nothing to ask, the screen says the notice does not exist.
  const notice = useQuery({ ...call('noticeDetail', { id }, { show: false }), enabled: id !== '' });
  // Opening it marked it read on the server: the unread counts (tab bar, bell, lists) follow.
  const read = notice.data?.read;
  useEffect(() => {
    if (read) void queryClient.invalidateQueries({ queryKey: ['noticeList'] });
  }, [read]);
  const w = notice.data ? noticeWords(notice.data, i18n) : null;
  return (
    <Page title={<Trans>公告详情</Trans>}>
      <LoadState loading={id !== '' && loading(notice)} failed={id === '' || failed(notice)} failedText={<Trans>这条通知不存在。</Trans>} onRetry={() => void notice.refetch()} />
      {notice.data && w ? (
        <section className={ui.card} data-testid="notice-detail">
          <h2 className={css.title}>{w.title}</h2>
          <p className={ui.muted}>{time(notice.data.createdAt)}</p>
          <p>{w.text}</p>
          {notice.data.detail.bot ? (
            <Link to="/strategy/detail/$id" params={{ id: notice.data.detail.bot }}>
              <Trans>查看策略</Trans>
            </Link>
          ) : null}
          {notice.data.code.startsWith('fuel') ? (
            <Link to="/my/asset/$type" params={{ type: 'fuel' }}>
              <Trans>查看燃料</Trans>
            </Link>
          ) : null}
          {notice.data.code.startsWith('security_') ? (
            <Link to="/my/security">
              <Trans>查看账户安全</Trans>
            </Link>
          ) : null}
        </section>
      ) : null}
    </Page>
  );
}
