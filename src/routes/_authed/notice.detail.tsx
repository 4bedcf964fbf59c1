import { createFileRoute } from '@tanstack/react-router';
import { NoticeDetailRoute } from '../../features/notices/components/notice-detail-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/notice/detail')({ loader: () => loadArea('notices'), component: NoticeDetailRoute });
