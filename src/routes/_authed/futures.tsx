import { createFileRoute } from '@tanstack/react-router';
import { FuturesPage } from '../../features/market/components/futures-page.tsx';

export const Route = createFileRoute('/_authed/futures')({ component: FuturesPage });
