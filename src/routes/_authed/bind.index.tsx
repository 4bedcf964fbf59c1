import { createFileRoute } from '@tanstack/react-router';
import { ExchangeListPage } from '../../features/exchanges/components/exchange-list-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/bind/')({ loader: () => loadArea('exchanges'), component: ExchangeListPage });
