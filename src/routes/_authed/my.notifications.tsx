import { createFileRoute } from '@tanstack/react-router';
import { NotificationsPage } from '../../features/alerts/components/notifications-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/my/notifications')({ loader: () => loadArea('alerts'), component: NotificationsPage });
