import { createFileRoute } from '@tanstack/react-router';
import { BindAccountRoute } from '../../features/settings/components/bind-route.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/my/bind/$type')({ loader: () => loadArea('settings'), component: BindAccountRoute });
