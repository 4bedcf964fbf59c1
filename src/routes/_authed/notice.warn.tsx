import { createFileRoute } from '@tanstack/react-router';
import { WarningListPage } from '../../features/notices/components/warning-list-page.tsx';

export const Route = createFileRoute('/_authed/notice/warn')({ component: WarningListPage });
