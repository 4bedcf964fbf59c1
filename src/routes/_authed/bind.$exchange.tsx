import { createFileRoute } from '@tanstack/react-router';
import { BindRoute } from '../../features/exchanges/components/bind-route.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/bind/$exchange')({ loader: () => loadArea('exchanges'), component: BindRoute });
