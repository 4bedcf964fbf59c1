import { createFileRoute } from '@tanstack/react-router';
import { ExchangeListPage } from '../../features/exchanges/components/exchange-list-page.tsx';

export const Route = createFileRoute('/_authed/bind/')({ component: ExchangeListPage });
