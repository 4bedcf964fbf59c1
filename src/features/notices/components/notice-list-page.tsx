import { useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useQuery } from '@tanstack/react-query';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { call, failed, keepPage, loading, write } from '../../../shared/query.ts';
import { Page } from '../../../components/ui/page.tsx';
import { LoadState } from '../../../components/ui/load-state.tsx';
import * as ui from '../../../components/ui/ui.css.ts';
import { time } from '../../../shared/format.ts';
import { Pager } from '../../../shared/pager.tsx';
import * as css from '../../../shared/blocks.css.ts';
import * as noticeCss from './notices.css.ts';
import { noticeWords } from '../words.ts';

const PAGE_SIZE = 10;

/** /notice/list (everything) and /notice/warn (warnings only): newest first, unread marked, all markable read. */
export function NoticeListPage({ kind }: { kind?: 'warning' }) {
  const { i18n } = useLingui();
  const [page, setPage] = useState(1);
  const notices = useQuery({ ...call('noticeList', { ...(kind ? { kind } : {}), page: String(page), page_size: String(PAGE_SIZE) }), ...keepPage });
  const readAll = () => write('noticeRead', { all: true }, { show: false });
  return (
    <Page
      title={kind ? <Trans>风险提示</Trans> : <Trans>公告</Trans>}
      action={
        notices.data && notices.data.unread > 0 ? (
          <button type="button" className={css.smallButton} onClick={() => void readAll()} data-testid="read-all">
            <Trans>全部已读</Trans>
          </button>
        ) : undefined
      }
    >
      {/* Everything, or the warnings alone (fuel, paused bots, refused orders, security): a tab each, one address each. */}
      <div className={css.chips} role="tablist" aria-label={i18n._(msg`通知类型`)}>
        <Link to="/notice/list" className={noticeCss.chipLink} aria-selected={!kind} role="tab" data-testid="notice-tab-all">
          <Trans>全部</Trans>
        </Link>
        <Link to="/notice/warn" className={noticeCss.chipLink} aria-selected={kind === 'warning'} role="tab" data-testid="notice-tab-warn">
          <Trans>风险提示</Trans>
        </Link>
      </div>
      <LoadState loading={loading(notices)} failed={failed(notices)} failedText={<Trans>加载失败。</Trans>} onRetry={() => void notices.refetch()} />
      {notices.data && notices.data.list.length === 0 ? (
        <section className={ui.card}>
          <p className={ui.muted}>{kind ? <Trans>没有风险提示。</Trans> : <Trans>暂无公告。</Trans>}</p>
        </section>
      ) : null}
      <ul className={notices.data?.list.length ? ui.list : noticeCss.hiddenList} data-testid="notice-list">
        {notices.data?.list.map((n) => {
          const w = noticeWords(n, i18n);
          return (
            <li key={n.id}>
              <Link to="/notice/detail" search={{ id: n.id }} className={noticeCss.item} data-read={n.read}>
                <div className={css.rowTight}>
                  <strong className={n.kind === 'warning' ? css.profit.down : undefined}>
                    {n.read ? '' : '● '}
                    {w.title}
                  </strong>
                  <span className={css.figureLabel}>{time(n.createdAt)}</span>
                </div>
                <div className={noticeCss.text}>{w.text}</div>
              </Link>
            </li>
          );
        })}
      </ul>
      {notices.data ? <Pager page={page} pageSize={PAGE_SIZE} total={notices.data.total} onPage={setPage} /> : null}
    </Page>
  );
}
