import { createFileRoute } from '@tanstack/react-router';
import { GridRoute } from '../../features/bots/components/bot-routes.tsx';
import { loadArea } from '../../lib/i18n.ts';

// Ours: the spec lists no grid screen; grid bots are created and edited here.
export const Route = createFileRoute('/_authed/strategy/grid/{-$id}')({ loader: () => loadArea('bots'), component: GridRoute });
