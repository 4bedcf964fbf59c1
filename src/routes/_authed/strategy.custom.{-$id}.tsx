import { createFileRoute } from '@tanstack/react-router';
import { CustomRoute } from '../../features/bots/components/bot-routes.tsx';
import { loadArea } from '../../lib/i18n.ts';

// Ours: custom bots (rules without code) are created and edited here.
export const Route = createFileRoute('/_authed/strategy/custom/{-$id}')({ loader: () => loadArea('bots'), component: CustomRoute });
