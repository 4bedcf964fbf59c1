import { createFileRoute } from '@tanstack/react-router';
import { NoticeListPage } from '../../features/notices/components/notice-list-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/notice/list')({ loader: () => loadArea('notices'), component: NoticeListPage });
