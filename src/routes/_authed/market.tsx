import { createFileRoute } from '@tanstack/react-router';
import { MarketPage } from '../../features/market/components/market-page.tsx';

export const Route = createFileRoute('/_authed/market')({ component: MarketPage });
