import { useQuery } from '@tanstack/react-query';
import { useAtomValue } from 'jotai';
import { useLingui } from '@lingui/react/macro';
import { Link } from '@tanstack/react-router';
import { isLoggedInAtom } from '../state/session.ts';
import { call, queryClient } from './query.ts';
import { livePoll } from './live/state.ts';
import * as css from './unread.css.ts';

/**
 * Unread notices (all, or the warnings): one page of one notice asked for its `unread`. A notice's live
 * event and marking read refresh it (contract/live.ts `liveChanges`, noticeRead's `changes`); polled only
 * while the live stream is down.
 */
export function useUnread(kind?: 'warning'): number {
  const loggedIn = useAtomValue(isLoggedInAtom);
  // The client named: the tab bar renders outside the logged-in frame's provider.
  const query = useQuery({ ...call('noticeList', { ...(kind ? { kind } : {}), page: '1', page_size: '1' }, { show: false }), refetchInterval: livePoll(60_000), enabled: loggedIn }, queryClient);
  return query.data?.unread ?? 0;
}

/** The count, or nothing when there is none; 99+ past 99. */
export function UnreadBadge({ count, onIcon }: { count: number; onIcon?: boolean }) {
  const { t } = useLingui();
  if (count <= 0) return null;
  const shown = count > 99 ? '99+' : String(count);
  return (
    <span className={onIcon ? `${css.badge} ${css.onIcon}` : css.badge} role="status" aria-label={t`${shown} 条未读`} data-testid="unread-badge">
      {shown}
    </span>
  );
}

/** Home's bell: the notices, with the unread count. */
export function NoticeBell() {
  const { t } = useLingui();
  const unread = useUnread();
  return (
    <Link to="/notice/list" className={css.bell} aria-label={unread > 0 ? t`通知，${unread} 条未读` : t`通知`} data-testid="notice-bell">
      <span className={css.iconHolder}>
        <svg width="22" height="22" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="1.9" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
          <path d="M6 8a6 6 0 1 1 12 0c0 7 3 9 3 9H3s3-2 3-9M10.3 21a1.94 1.94 0 0 0 3.4 0" />
        </svg>
        <UnreadBadge count={unread} onIcon />
      </span>
    </Link>
  );
}
