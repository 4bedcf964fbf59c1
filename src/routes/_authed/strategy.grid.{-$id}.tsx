import { createFileRoute } from '@tanstack/react-router';
import { GridRoute } from '../../features/bots/components/bot-routes.tsx';

// Ours: the spec lists no grid screen; grid bots are created and edited here (issue 6 §1).
export const Route = createFileRoute('/_authed/strategy/grid/{-$id}')({ component: GridRoute });
