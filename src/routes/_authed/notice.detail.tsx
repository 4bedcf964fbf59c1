import { createFileRoute } from '@tanstack/react-router';
import { NoticeDetailRoute } from '../../features/notices/components/notice-detail-page.tsx';

export const Route = createFileRoute('/_authed/notice/detail')({ component: NoticeDetailRoute });
