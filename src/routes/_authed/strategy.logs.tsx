import { createFileRoute } from '@tanstack/react-router';
import { LogsRoute } from '../../features/bots/components/bot-routes.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/strategy/logs')({ loader: () => loadArea('bots'), component: LogsRoute });
