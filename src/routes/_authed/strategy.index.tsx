import { createFileRoute } from '@tanstack/react-router';
import { StrategyListPage } from '../../features/bots/components/strategy-list-page.tsx';

export const Route = createFileRoute('/_authed/strategy/')({ component: StrategyListPage });
