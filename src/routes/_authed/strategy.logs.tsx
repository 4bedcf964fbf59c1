import { createFileRoute } from '@tanstack/react-router';
import { BotLogsPage } from '../../features/bots/components/bot-logs-page.tsx';

export const Route = createFileRoute('/_authed/strategy/logs')({
  validateSearch: (search: Record<string, unknown>): { id?: string } =>
    typeof search.id === 'string' && /^[1-9]\d{0,17}$/.test(search.id) ? { id: search.id } : typeof search.id === 'number' ? { id: String(search.id) } : {},
  component: function LogsRoute() {
    const { id } = Route.useSearch();
    return <BotLogsPage id={id} />;
  },
});
