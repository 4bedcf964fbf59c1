import { createFileRoute } from '@tanstack/react-router';
import { MarketPage } from '../../features/market/components/market-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/market')({ loader: () => loadArea('market'), component: MarketPage });
