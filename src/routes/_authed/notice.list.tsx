import { createFileRoute } from '@tanstack/react-router';
import { NoticeListPage } from '../../features/notices/components/notice-list-page.tsx';

export const Route = createFileRoute('/_authed/notice/list')({ component: NoticeListPage });
