import { NoticeListPage } from './notice-list-page.tsx';

/** /notice/warn: the warnings only (fuel, paused bots, refused orders). */
export function WarningListPage() {
  return <NoticeListPage kind="warning" />;
}
