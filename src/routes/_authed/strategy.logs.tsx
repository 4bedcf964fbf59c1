import { createFileRoute } from '@tanstack/react-router';
import { LogsRoute } from '../../features/bots/components/bot-routes.tsx';

export const Route = createFileRoute('/_authed/strategy/logs')({ component: LogsRoute });
