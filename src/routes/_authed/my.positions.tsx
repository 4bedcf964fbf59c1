import { createFileRoute } from '@tanstack/react-router';
import { PositionsPage } from '../../features/bots/components/positions-page.tsx';
import { loadArea } from '../../lib/i18n.ts';

export const Route = createFileRoute('/_authed/my/positions')({ loader: () => loadArea('bots'), component: PositionsPage });
