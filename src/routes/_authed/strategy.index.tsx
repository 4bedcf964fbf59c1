import { createFileRoute } from '@tanstack/react-router';
import { StrategyListPage } from '../../features/bots/components/strategy-list-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/strategy/')({ loader: () => loadArea('bots'), component: StrategyListPage });
