import { createFileRoute } from '@tanstack/react-router';
import { WarningListPage } from '../../features/notices/components/warning-list-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/notice/warn')({ loader: () => loadArea('notices'), component: WarningListPage });
